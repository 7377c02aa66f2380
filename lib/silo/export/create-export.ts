// GET /silo/v1/export's domain call: the plan of a chain's export for a period, and its record in
// the event log. An export changes nothing, but it hands the whole archive of a period to someone:
// who took which period, and which manifest they got, is written as `export.created` before the
// first byte is sent (docs/api.md, Export). The record comes after the plan, so an export never
// holds its own record.
import type { Tx } from '../../db/client';
import { appendEvent } from '../../events/append-event';
import { type EventActor, eventActorFor } from '../../events/catalogue';
import type { Chain } from '../../events/chain';
import type { AuditKey } from '../../events/signing-key';
import type { Period } from '../../db/scope';
import type { ExportQuery } from '../../schemas/export';
import { outsidePeriod } from '../period';
import type { BlobStore } from '../../storage/blob-store';
import { type ExportPlan, planExport } from './plan-export';
import { type ExportZip, writeExport } from './write-export';

export interface CreateExportOptions {
  db: Tx;
  store: BlobStore;
  chain: Chain;
  period: ExportQuery;
  key: AuditKey;
  actor: EventActor | null;
  /** the instance's address, named in index.xml */
  location: string;
}

export async function createExport(o: CreateExportOptions): Promise<{ plan: ExportPlan; zip: ExportZip; size: number }> {
  const plan = await planExport(o);
  const zip = writeExport(plan);
  let size: number;
  try {
    size = await zip.size;
    await record(o, plan, size);
  } catch (err) {
    zip.abort();
    throw err;
  }
  return { plan, zip, size };
}

async function record(o: CreateExportOptions, plan: ExportPlan, size: number) {
  await appendEvent(o.db, {
    ownerId: o.chain.ownerId,
    sandbox: o.chain.sandbox,
    type: 'export.created',
    actor: eventActorFor(o.actor),
    data: {
      from: o.period.from,
      to: o.period.to,
      versions: plan.versions,
      bytes: plan.bytes,
      size,
      manifest_sha256: plan.manifestSha256,
    },
  });
}

const DAY = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The days of `asked` (both included) inside an auditor's key's period ([start, end), whole days):
 * the export such a key gets (docs/api.md, Auditor keys). None in common: 403 outside_period.
 */
export function clampExportPeriod(asked: ExportQuery, key: Period): ExportQuery {
  const from = Math.max(Date.parse(asked.from), key.start.getTime());
  const to = Math.min(Date.parse(asked.to), key.end.getTime() - DAY);
  if (from > to) throw outsidePeriod('Nothing in the days asked for');
  return { from: dayOf(from), to: dayOf(to) };
}
