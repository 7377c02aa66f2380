// Leases left by processes that are gone: this host's are freed at start-up, and a resume may take
// one at once; a live holder, here or on another host, keeps its lease.
import { spawn } from 'node:child_process';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testWorld, type TestWorld } from '../../testing/database';
import { placeholderMaker } from '../../testing/owner';
import { receiveUpload } from './receive-upload';
import { isUploadLeased, releaseLeasesOfDeadProcesses } from './upload-lock';

let w: TestWorld;
let placeholder: Awaited<ReturnType<typeof placeholderMaker>>['placeholder'];

beforeAll(async () => {
  w = await testWorld();
  ({ placeholder } = await placeholderMaker(w.db.prisma, w.store));
});
afterAll(() => w.close());

describe('leases of processes that are gone', () => {
  it("start-up frees this host's leases whose process is gone, and its own pid's, and keeps the rest; the upload then resumes", async () => {
    const db = w.db.prisma;
    const gone = spawn(process.execPath, ['-e', '0']);
    await new Promise((r) => gone.once('exit', r));
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      const bytes = Buffer.alloc(3000, 7);
      const cases = {
        dead: `${os.hostname()}/${gone.pid}`,
        self: `${os.hostname()}/${process.pid}`,
        live: `${os.hostname()}/${other.pid}`,
        remote: `elsewhere.example/${gone.pid}`,
      };
      const files: Record<string, Awaited<ReturnType<typeof placeholder>>['file']> = {};
      for (const [name, instance] of Object.entries(cases)) {
        const { file } = await placeholder(bytes);
        await receiveUpload({ db, store: w.store, file, source: [bytes.subarray(0, 1000)], contentRange: 'bytes 0-999/3000' });
        await db.$executeRaw`INSERT INTO upload_leases (file_id, holder, instance, expires_at) VALUES (${file.id}::uuid, gen_random_uuid(), ${instance}, now() + interval '1 hour')`;
        files[name] = file;
      }
      expect(await releaseLeasesOfDeadProcesses(db)).toBe(2);
      expect(await isUploadLeased(db, files.dead.id)).toBe(false);
      expect(await isUploadLeased(db, files.self.id)).toBe(false);
      expect(await isUploadLeased(db, files.live.id)).toBe(true);
      expect(await isUploadLeased(db, files.remote.id)).toBe(true);
      // The freed upload resumes from its held bytes; it is not a takeover that starts over.
      const done = await receiveUpload({
        db,
        store: w.store,
        file: files.dead,
        source: [bytes.subarray(1000)],
        contentRange: 'bytes 1000-2999/3000',
      });
      expect(done.kind).toBe('stored');
    } finally {
      other.kill('SIGKILL');
    }
  });

  it('a resume may take at once the unexpired lease of a dead process of this host, and builds on its held bytes', async () => {
    const db = w.db.prisma;
    const gone = spawn(process.execPath, ['-e', '0']);
    await new Promise((r) => gone.once('exit', r));
    const bytes = Buffer.alloc(3000, 9);
    const { file } = await placeholder(bytes);
    await receiveUpload({ db, store: w.store, file, source: [bytes.subarray(0, 1000)], contentRange: 'bytes 0-999/3000' });
    await db.$executeRaw`INSERT INTO upload_leases (file_id, holder, instance, expires_at) VALUES (${file.id}::uuid, gen_random_uuid(), ${`${os.hostname()}/${gone.pid}`}, now() + interval '1 hour')`;
    const done = await receiveUpload({ db, store: w.store, file, source: [bytes.subarray(1000)], contentRange: 'bytes 1000-2999/3000' });
    expect(done.kind).toBe('stored');
    // A live holder elsewhere still refuses.
    const other = await placeholder(bytes);
    await db.$executeRaw`INSERT INTO upload_leases (file_id, holder, instance, expires_at) VALUES (${other.file.id}::uuid, gen_random_uuid(), 'elsewhere.example/1', now() + interval '1 hour')`;
    await expect(receiveUpload({ db, store: w.store, file: other.file, source: [bytes], contentRange: null })).rejects.toMatchObject({
      key: 'upload_in_progress',
    });
  });
});
