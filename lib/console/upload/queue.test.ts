// The upload queue's state machine, with the network replaced at its seam (UploadTransport): each
// fake call waits until the test settles it, so every step in between can be looked at. The
// queue's own waits (a busy answer's Retry-After) run on fake timers.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiFailure } from '../api';
import type { FileRecord } from '../../schemas/records';
import { AUTO_RETRIES, UploadQueue, type UploadItem, type UploadStatus } from './queue';
import { ConnectionLost } from './send-bytes';
import { fakeNet, record } from '../../testing/upload-net';

const file = (name: string, size = 10) => new File(['x'.repeat(size)], name, { type: 'text/plain' });
/** Lets every callback already due run (setImmediate: real while the timers are fake). */
const settle = () => new Promise((r) => setImmediate(r));
/** Moves the fake clock `ms` on, running the timers due, and then what they started. */
const elapse = async (ms: number) => {
  await vi.advanceTimersByTimeAsync(ms);
  await settle();
};

function setup(...files: File[]) {
  const fake = fakeNet();
  const stored: FileRecord[] = [];
  const queue = new UploadQueue('e1', (r) => stored.push(r), fake.net);
  queue.add(files);
  const item = (name: string) => queue.snapshot().find((i) => i.file.name === name) as UploadItem;
  const statuses = () => queue.snapshot().map((i) => i.status);
  return { ...fake, queue, stored, item, statuses };
}

/** Hashes and creates the placeholder of the n-th started file, leaving it uploading. */
async function toUploading(t: ReturnType<typeof setup>, n: number) {
  t.hashes[n].resolve(`sha-${n}`);
  await settle();
}

/** a.txt (100 bytes) hashed, its placeholder created, and its first PUT failed with `err`. */
async function failedUpload(err: Error) {
  const t = setup(file('a.txt', 100));
  t.queue.start(t.item('a.txt').id);
  await toUploading(t, 0);
  t.sends[0].reject(err);
  await settle();
  return t;
}

describe('UploadQueue', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('takes a file from ready through hashing, creating and uploading to stored', async () => {
    const t = setup(file('a.txt'));
    const seen: UploadStatus[] = [];
    t.queue.subscribe(() => {
      const s = t.item('a.txt').status;
      if (seen.at(-1) !== s) seen.push(s);
    });
    const id = t.item('a.txt').id;
    t.queue.setOptions(id, { category: 'format', key: '  inv-1 ', desc: 'UBL' });
    t.queue.start(id);
    expect(t.item('a.txt').status).toBe('hashing');
    t.hashes[0].progress(4);
    expect(t.item('a.txt').hashed).toBe(4);
    await toUploading(t, 0);
    expect(t.placeholders).toEqual([
      {
        entryId: 'e1',
        fileId: undefined,
        body: {
          name: 'a.txt',
          mime: 'text/plain',
          sha256: 'sha-0',
          size: 10,
          category: 'format',
          key: 'inv-1',
          desc: 'UBL',
          private: false,
          embeddable: false,
        },
      },
    ]);
    expect(t.sends[0].o).toMatchObject({ url: '/upload/1', offset: 0, mime: 'text/plain' });
    t.sends[0].o.onProgress(6);
    expect(t.item('a.txt').sent).toBe(6);
    const done = record('a.txt', 'f-a.txt', '/upload/1', true);
    t.sends[0].resolve(done);
    await settle();
    expect(seen).toEqual(['ready', 'hashing', 'creating', 'uploading', 'stored']);
    expect(t.item('a.txt')).toMatchObject({ status: 'stored', sent: 10, record: done });
    expect(t.stored).toEqual([done]);
    expect(t.heads).toEqual([]); // a first upload asks nothing before sending
  });

  it('leaves out a blank key and changes options only before the upload starts', async () => {
    const t = setup(file('a.txt'));
    const id = t.item('a.txt').id;
    t.queue.setOptions(id, { key: '   ' });
    t.queue.start(id);
    t.queue.setOptions(id, { desc: 'too late' });
    expect(t.item('a.txt').options.desc).toBe('');
    await toUploading(t, 0);
    expect(t.placeholders[0].body).not.toHaveProperty('key');
  });

  it('runs three files at a time; the next starts when one finishes', async () => {
    const t = setup(...['1', '2', '3', '4', '5'].map((n) => file(`${n}.txt`)));
    t.queue.startAll();
    expect(t.statuses()).toEqual(['hashing', 'hashing', 'hashing', 'ready', 'ready']);
    expect(t.hashes).toHaveLength(3);
    await toUploading(t, 0);
    expect(t.hashes).toHaveLength(3); // uploading still holds its slot
    t.sends[0].resolve(record('1.txt', 'f1', '/upload/1', true));
    await settle();
    expect(t.statuses()).toEqual(['stored', 'hashing', 'hashing', 'hashing', 'ready']);
    t.hashes[1].reject(new Error('unreadable file'));
    await settle();
    expect(t.item('2.txt')).toMatchObject({ status: 'failed', error: 'unreadable file' });
    expect(t.statuses().filter((s) => s === 'hashing')).toHaveLength(3); // a failure frees its slot too
  });

  it('retries a failed upload by resuming: the hash and placeholder are kept and HEAD gives the offset', async () => {
    const t = await failedUpload(new ConnectionLost());
    expect(t.item('a.txt')).toMatchObject({ status: 'failed', error: 'The connection dropped; retry to resume where it stopped' });

    t.answerHead(async () => 40);
    t.queue.start(t.item('a.txt').id);
    await settle();
    expect(t.hashes).toHaveLength(1);
    expect(t.placeholders).toHaveLength(1);
    expect(t.heads).toEqual(['/upload/1']);
    expect(t.sends[1].o).toMatchObject({ url: '/upload/1', offset: 40 });
    expect(t.item('a.txt')).toMatchObject({ status: 'uploading', sent: 40, error: undefined });
  });

  it('starts from zero when the server holds the whole size (or more) already', async () => {
    const t = await failedUpload(new ConnectionLost());
    t.answerHead(async () => 100);
    t.queue.start(t.item('a.txt').id);
    await settle();
    expect(t.sends[1].o.offset).toBe(0);
  });

  it('renews an expired url by repeating the file PUT, then resumes on the new url', async () => {
    const t = await failedUpload(new ApiFailure('The upload link expired', 403, 'upload_url_expired'));
    expect(t.item('a.txt').status).toBe('failed');

    t.answerHead(async (url) => {
      if (url === '/upload/1') throw new ApiFailure('The upload link expired', 403, 'upload_url_expired');
      return 25;
    });
    t.queue.start(t.item('a.txt').id);
    await settle();
    expect(t.placeholders).toHaveLength(2);
    expect(t.placeholders[1]).toMatchObject({ fileId: 'f-a.txt', body: t.placeholders[0].body });
    expect(t.heads).toEqual(['/upload/1', '/upload/2']);
    expect(t.sends[1].o).toMatchObject({ url: '/upload/2', offset: 25 });
  });

  it('fails a retry whose HEAD fails for another reason', async () => {
    const t = await failedUpload(new ConnectionLost());
    t.answerHead(async () => {
      throw new ApiFailure('Not found', 404, 'not_found');
    });
    t.queue.start(t.item('a.txt').id);
    await settle();
    expect(t.item('a.txt')).toMatchObject({ status: 'failed', error: 'Not found' });
    expect(t.placeholders).toHaveLength(1);
  });

  it('cancels a running upload (aborting its request) and frees its slot', async () => {
    const t = setup(...['1', '2', '3', '4'].map((n) => file(`${n}.txt`)));
    t.queue.startAll();
    await toUploading(t, 0);
    const signal = t.sends[0].o.signal;
    t.queue.cancel(t.item('1.txt').id);
    expect(signal.aborted).toBe(true);
    await settle();
    expect(t.item('1.txt')).toMatchObject({ status: 'cancelled', error: undefined });
    expect(t.item('4.txt').status).toBe('hashing');
    // A cancelled file starts again where it stopped: it already has its hash and placeholder.
    t.queue.start(t.item('1.txt').id);
    expect(t.item('1.txt').status).toBe('ready'); // waits for a slot
  });

  it('cancels a waiting file before it starts, and removes files from the list', async () => {
    const t = setup(...['1', '2', '3', '4'].map((n) => file(`${n}.txt`)));
    t.queue.startAll();
    t.queue.cancel(t.item('4.txt').id);
    expect(t.item('4.txt').status).toBe('cancelled');
    t.queue.remove(t.item('2.txt').id);
    await settle();
    expect(t.queue.snapshot().map((i) => i.file.name)).toEqual(['1.txt', '3.txt', '4.txt']);
    expect(t.hashes).toHaveLength(3); // the freed slot did not start the cancelled file
    expect(t.item('4.txt').status).toBe('cancelled');
  });

  it('tries a busy answer again by itself after its Retry-After, resuming, up to AUTO_RETRIES in a row', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const busy = () => new ApiFailure('The server is busy; try again in 1 seconds', 503, 'busy', undefined, 1);
    const t = await failedUpload(busy());
    expect(t.item('a.txt')).toMatchObject({ status: 'failed', error: `The server is busy; trying again in 1 s (1 of ${AUTO_RETRIES})` });
    t.answerHead(async () => 30);
    // not a moment before its Retry-After (1 s)
    await elapse(999);
    expect([t.heads, t.sends.length]).toEqual([[], 1]);
    await elapse(1);
    // resumed from what the server holds, on the same placeholder
    expect(t.heads).toEqual(['/upload/1']);
    expect(t.sends[1].o).toMatchObject({ url: '/upload/1', offset: 30 });
    // the server busy every time: after AUTO_RETRIES tries by itself, the user decides
    for (let n = 1; n <= AUTO_RETRIES; n++) {
      t.sends[n].reject(busy());
      await settle();
      if (n < AUTO_RETRIES) await elapse(1_000);
    }
    expect(t.sends).toHaveLength(AUTO_RETRIES + 1);
    expect(t.item('a.txt')).toMatchObject({ status: 'failed', error: 'The server is busy; try again in 1 seconds' });
    expect(vi.getTimerCount()).toBe(0);
    await elapse(60_000);
    expect(t.sends).toHaveLength(AUTO_RETRIES + 1);
    // the user's retry starts a new count, and a success ends it
    t.queue.start(t.item('a.txt').id);
    await settle();
    t.sends[AUTO_RETRIES + 1].reject(busy());
    await settle();
    expect(t.item('a.txt').error).toBe(`The server is busy; trying again in 1 s (1 of ${AUTO_RETRIES})`);
    await elapse(1_000);
    t.sends[AUTO_RETRIES + 2].resolve(record('a.txt', 'fa', '/upload/1', true));
    await settle();
    expect(t.item('a.txt').status).toBe('stored');
  });

  it('does not try again by itself after anything but a busy answer, nor once cancelled', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const t = await failedUpload(new ApiFailure('The bytes do not match', 422, 'checksum_mismatch'));
    await elapse(60_000);
    expect(t.sends).toHaveLength(1);
    expect(t.item('a.txt')).toMatchObject({ status: 'failed', error: 'The bytes do not match' });

    const u = await failedUpload(new ApiFailure('Busy', 429, 'rate_limited', undefined, 1));
    expect(u.item('a.txt').error).toMatch(/trying again in 1 s/);
    u.queue.cancel(u.item('a.txt').id);
    expect(vi.getTimerCount()).toBe(0);
    await elapse(60_000);
    expect(u.sends).toHaveLength(1);
    expect(u.item('a.txt').status).toBe('cancelled');
  });

  it('clears stored files and keeps the rest', async () => {
    const t = setup(file('a.txt'), file('b.txt'));
    t.queue.start(t.item('a.txt').id);
    await toUploading(t, 0);
    t.sends[0].resolve(record('a.txt', 'fa', '/upload/1', true));
    await settle();
    t.queue.clearFinished();
    expect(t.queue.snapshot().map((i) => i.file.name)).toEqual(['b.txt']);
  });
});

describe('options', () => {
  it('a PDF or XML starts as a format, anything else as an attachment; a preset wins and names the stored file', async () => {
    const t = setup(
      new File(['%PDF'], 'inv.pdf', { type: 'application/pdf' }),
      new File(['<a/>'], 'inv.xml', { type: 'application/xml' }),
      file('n.txt'),
    );
    expect(t.queue.snapshot().map((i) => i.options.category)).toEqual(['format', 'format', 'attachment']);
    const [id] = t.queue.add([file('other-name.txt')], { category: 'format', key: '', name: 'n.txt' });
    expect(t.item('other-name.txt')).toMatchObject({ id, options: { category: 'format', name: 'n.txt' } });
    t.queue.start(id);
    t.hashes[0].resolve('sha-0');
    await settle();
    expect(t.placeholders[0].body).toMatchObject({ name: 'n.txt', category: 'format' });
  });
});
