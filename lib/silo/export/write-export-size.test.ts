// The export's Content-Length is the number of bytes its ZIP has, also when the central directory
// passes 64 KiB (a few hundred versions), where yazl's own prediction counted ZIP64 end records it
// does not write; and with ZIP64 forced, where it writes them.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { ExportMember, ExportPlan } from './plan-export';
import { writeExport } from './write-export';

function planOf(members: number, nameLength: number): ExportPlan {
  const mtime = new Date('2020-01-01T00:00:00Z');
  return {
    chain: 'c',
    period: { from: '2020-01-01', to: '2020-12-31' },
    createdAt: mtime,
    versions: members,
    bytes: members * 3,
    events: { first: 1, last: 1 },
    members: Array.from({ length: members }, (_, i): ExportMember => {
      const bytes = Buffer.from(`${i % 1000}`.padStart(3, '0'));
      const name = `files/${String(i).padStart(nameLength - 10, 'x')}/v1.xml`;
      // Half as buffers, half as streams, as the export has both.
      return i % 2
        ? { name, size: bytes.length, sha256: '', mtime, bytes }
        : { name, size: bytes.length, sha256: '', mtime, open: async () => Readable.from([bytes]) };
    }),
  };
}

async function written(zip: ReturnType<typeof writeExport>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of zip.stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

describe('the export ZIP’s announced size', () => {
  for (const [members, nameLength, forceZip64] of [
    [10, 40, false],
    [600, 120, false], // a central directory of ~100 KiB
    [600, 120, true],
  ] as const)
    it(`is its length: ${members} members, names of ${nameLength} bytes${forceZip64 ? ', ZIP64 forced' : ''}`, async () => {
      const zip = writeExport(planOf(members, nameLength), { forceZip64 });
      const size = await zip.size;
      const bytes = await written(zip);
      expect(bytes.length).toBe(size);
      // It ends with the end of central directory record (no comment), ZIP64 records before it when forced.
      expect(bytes.readUInt32LE(bytes.length - 22)).toBe(0x06054b50);
      expect(bytes.includes(Buffer.from([0x50, 0x4b, 0x06, 0x06]), bytes.length - 22 - 76)).toBe(forceZip64);
    });
});
