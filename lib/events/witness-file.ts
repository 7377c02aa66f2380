// Reads what a client kept of the event log (`--witness FILE` of verify-events and verify-export):
// records as GET /silo/v1/events or a webhook message shows them, checkpoint records, or Silo-Event
// header values. The file holds one JSON value, a JSON array of them, or one per line (JSON or a
// header's value as text).
import { parseWitnessHeader } from './witness';

/** A kept record: its chain when it names one (a checkpoint, a header), else its id to find it by. */
export interface KeptWitness {
  chain?: string;
  id?: string;
  seq: number;
  hash: string;
}

export function readWitnesses(text: string): KeptWitness[] {
  const trimmed = text.trim();
  if (!trimmed) return [];
  try {
    const value = JSON.parse(trimmed) as unknown;
    return (Array.isArray(value) ? value : [value]).map(witnessOf);
  } catch (err) {
    if (!(err instanceof SyntaxError)) throw err;
  }
  return trimmed
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((line) => {
      const header = parseWitnessHeader(line.replace(/^silo-event:\s*/i, ''));
      if (header) return header;
      try {
        return witnessOf(JSON.parse(line));
      } catch {
        throw new Error(`not a witness (a record, a checkpoint or a Silo-Event value): ${line.slice(0, 80)}`);
      }
    });
}

function witnessOf(v: unknown): KeptWitness {
  if (typeof v === 'string') {
    const header = parseWitnessHeader(v);
    if (header) return header;
  }
  const o = v as Record<string, unknown> | null;
  const ok =
    o && typeof o.seq === 'number' && Number.isInteger(o.seq) && o.seq > 0 && typeof o.hash === 'string' && /^[0-9a-f]{64}$/.test(o.hash);
  if (!ok) throw new Error(`not a witness (a record, a checkpoint or a Silo-Event value): ${JSON.stringify(v).slice(0, 80)}`);
  if (typeof o.chain === 'string') return { chain: o.chain, seq: o.seq as number, hash: o.hash as string };
  if (typeof o.id === 'string') return { id: o.id, seq: o.seq as number, hash: o.hash as string };
  throw new Error(`a witness names no chain and no record id: ${JSON.stringify(v).slice(0, 80)}`);
}

/** Kept witnesses by chain name; those known only by record id are placed by `chainOfRecord` (undefined: not in the log). */
export async function witnessesByChain(
  kept: KeptWitness[],
  chainOfRecord: (id: string) => Promise<string | undefined>,
): Promise<{ byChain: Map<string, { seq: number; hash: string }[]>; missing: KeptWitness[] }> {
  const byChain = new Map<string, { seq: number; hash: string }[]>();
  const missing: KeptWitness[] = [];
  for (const w of kept) {
    const chain = w.chain ?? (w.id ? await chainOfRecord(w.id) : undefined);
    if (!chain) {
      missing.push(w);
      continue;
    }
    byChain.set(chain, [...(byChain.get(chain) ?? []), { seq: w.seq, hash: w.hash }]);
  }
  return { byChain, missing };
}
