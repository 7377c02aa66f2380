// Authorship and links of a version: created_by recorded at creation (inline, placeholder, restore),
// restored_from, and links that expire, verify their signature and die when the nonce rotates.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '../../db/scope';
import { createTestEntry } from '../../testing/owner';
import { testWorld, type TestWorld } from '../../testing/database';
import { TEST_FILE_LIMITS as LIMITS, parseFileInput as parse, sha256 as sha } from '../../testing/files';
import type { CreatedBy } from '../../schemas/files';
import { createFile } from './create-file';
import { createLink, findFileByLink, revokeLinks } from './file-links';
import { presentFile } from './present-file';
import { listPreviousVersions } from './list-previous-versions';
import { receiveUpload } from './receive-upload';
import { restoreFile } from './restore-file';
import { TEST_ACTOR } from '../../testing/actor';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const signer = { base: 'http://silo.test', secret: 'test-secret' };
const app: CreatedBy = { type: 'app', id: '6f1c7c1e-4a57-4f8e-9a43-1f7d0c2b9e10', name: 'Invoicer' };
const user: CreatedBy = { type: 'user', id: '0b9d4a52-5c1e-4f4e-9d3a-6a2f0c1b7e21', name: 'Ursula' };

let w: TestWorld;
let scope: Scope;
let entryId: string;

beforeAll(async () => {
  w = await testWorld();
  ({ scope, entryId } = await createTestEntry(w.db.prisma));
});
afterAll(() => w.close());

const upload = (input: object, actor: CreatedBy | null) =>
  createFile({ db: w.db.prisma, store: w.store, scope, entryId, input: parse(input), limits: LIMITS, actor });

describe('created_by and restored_from', () => {
  it('inline and placeholder versions record their author; a restore records its own and its source', async () => {
    const v1 = await upload({ name: 'a.xml', data: b64('one'), desc: 'first' }, app);
    const p = await upload({ name: 'a.xml', mime: 'text/xml', size: 3, sha256: sha('two') }, user);
    // The placeholder's author stays when the bytes arrive by its url (no credentials there).
    const stored = await receiveUpload({ db: w.db.prisma, store: w.store, file: p.file, source: [Buffer.from('two')], contentRange: null });
    expect(stored.kind).toBe('stored');
    const v3 = await restoreFile({ db: w.db.prisma, store: w.store, version: v1.file, actor: user });
    const record = presentFile(v3, signer, await listPreviousVersions(w.db.prisma, v3));
    expect(record).toMatchObject({ version: 3, created_by: user, restored_from: { id: v1.file.id, version: 1 }, desc: 'first' });
    expect(record.previous?.map((v) => [v.version, v.created_by, v.restored_from, v.desc])).toEqual([
      [2, user, null, ''],
      [1, app, null, 'first'],
    ]);
  });

  it('a version made without an author answers created_by: null', async () => {
    const v = await upload({ name: 'old.txt', data: b64('old') }, null);
    expect(presentFile(v.file, signer)).toMatchObject({ created_by: null, restored_from: null, version: 1 });
  });
});

describe('links', () => {
  const find = (url: string, now?: number) => {
    const u = new URL(url);
    const id = u.pathname.split('/').pop() ?? '';
    return findFileByLink({
      db: w.db.prisma,
      secret: signer.secret,
      id,
      expires: u.searchParams.get('expires') ?? undefined,
      sig: u.searchParams.get('link') ?? '',
      now,
    });
  };

  it('a link names its version until it expires, then answers link_expired', async () => {
    const { file } = await upload({ name: 'l.txt', data: b64('link') }, app);
    const now = Date.UTC(2026, 10, 24, 12);
    const link = createLink(signer, file, 60, now);
    expect(link.expires_at).toBe('2026-11-24T12:01:00.000Z');
    expect((await find(link.url, now + 59_000)).id).toBe(file.id);
    await expect(find(link.url, now + 60_000)).rejects.toMatchObject({ key: 'link_expired' });
  });

  it('an altered expiry or signature, or a rotated nonce, is forbidden; a deleted file is not found', async () => {
    const { file } = await upload({ name: 'm.txt', data: b64('more') }, app);
    const link = createLink(signer, file, 600);
    const later = link.url.replace(/expires=(\d+)/, (_, n) => `expires=${Number(n) + 1000}`);
    await expect(find(later)).rejects.toMatchObject({ key: 'forbidden' });
    await expect(find(link.url.replace(/link=./, 'link=A'))).rejects.toMatchObject({ key: 'forbidden' });
    await expect(find(link.url.replace(/expires=\d+/, 'expires=soon'))).rejects.toMatchObject({ key: 'forbidden' });
    expect((await find(link.url)).id).toBe(file.id);
    await revokeLinks(w.db.prisma, file, TEST_ACTOR);
    await expect(find(link.url)).rejects.toMatchObject({ key: 'forbidden' });
    const fresh = createLink(signer, await w.db.prisma.file.findUniqueOrThrow({ where: { id: file.id } }), 600);
    expect((await find(fresh.url)).id).toBe(file.id);
    await w.db.prisma.file.delete({ where: { id: file.id } });
    await expect(find(fresh.url)).rejects.toMatchObject({ key: 'not_found' });
  });
});
