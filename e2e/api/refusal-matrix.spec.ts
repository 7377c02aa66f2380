// The refusal matrix of issue 23 (docs/api.md, Retention): who × what the version is under × which
// delete. Each cell, its answer, and where it is pinned (this file unless named; every file runs on
// PGlite and, with TEST_DATABASE_URL, on PostgreSQL: vitest's describe.each, Playwright's api-postgres).
//
// Callers: K workspace key · T enrollment token · M console member · A console administrator ·
// X ADMIN_API_KEY without the header · XB ADMIN_API_KEY with X-Silo-Bypass-Governance-Retention: true ·
// Q auditor key. Kinds: G governance · C compliance · H legal hold · E expired (retain_until passed).
//
// delete version (DELETE …/files/{id}) and entry (DELETE /silo/v1/entries/{id}):
//   K, T, M, A (no header)  G 409 retained · C 409 retained · H 409 legal_hold · E 204    "members and keys"
//                           (domain, every kind × version / whole file / entry: lib/silo/retention/refusals.test.ts)
//   K, T, M + header        403 forbidden, whatever the kind                              "members and keys"
//                           (K × G: e2e/api/retention.spec.ts)
//   A + header, XB          G 204 + retention.bypassed · C 409 · H 409 · E 204            "administrators"
//                           (A × G version, XB × C version, XB × H/C entry: retention.spec.ts)
//   X                       403 forbidden (the admin key reaches no silo data without the header)  "administrators"
//   Q                       403 read_only_key, header or not, whatever the kind           "auditor"
// delete workspace (DELETE /admin/v1/owners/{id}):
//   K, T, M                 403 forbidden; Q 403 read_only_key                           "workspace", "auditor"
//   A, X (no header)        G 409 retained · C 409 · H 409 legal_hold · E 204             "workspace"
//                           (domain: lib/access/delete-owner.test.ts; X × G/C: retention.spec.ts)
//   A + header, XB          G 204, retention.bypassed kept in GET /admin/v1/deleted-chains · C 409 · H 409 · E 204
//                           "workspace"; domain: delete-owner.test.ts
// sweep (no caller; lib/silo/files/sweep-blobs.ts): G, C, H, E: a blob a version row refers to is
//   never freed; E's goes once its version is deleted — lib/silo/retention/refusal-matrix.test.ts
//   (G, C, H also refusals.test.ts; the S3 lock refusal: lib/silo/files/sweep-locked.test.ts)
// psql (no caller; triggers, ENABLE ALWAYS): C DELETE of version / entry / workspace refused
//   (refusals.test.ts), H refused (hold-in-database.test.ts), G and E go: the database holds only
//   what no one may override (refusal-matrix.test.ts).
import type { APIRequestContext, APIResponse } from '@playwright/test';
import { bearer, expect, test } from '../fixtures';
import { b64, createEntry, enrollmentToken, expectError, inlineFile, newUser, signIn } from './helpers';

type Kind = 'governance' | 'compliance' | 'hold' | 'expired';
const KINDS: Kind[] = ['governance', 'compliance', 'hold', 'expired'];
const BYPASS = { 'X-Silo-Bypass-Governance-Retention': 'true' };
const EXPIRES_MS = 2_500;
const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

/** An entry with one version of `kind` in `key`'s workspace (expired: EXPIRES_MS from now). */
async function kept(request: APIRequestContext, key: string, kind: Kind) {
  const entry = await createEntry(request, key, { name: kind });
  const until = kind === 'expired' ? new Date(Date.now() + EXPIRES_MS) : new Date(Date.now() + 365 * 86_400_000);
  const file = await inlineFile(request, key, entry.id, {
    name: `${kind}.xml`,
    data: b64(`<Invoice>${kind} ${entry.id}</Invoice>`),
    retain_until: until.toISOString(),
    retention_mode: kind === 'compliance' ? 'compliance' : 'governance',
  });
  if (kind === 'hold') {
    const held = await request.put(`/silo/v1/entries/${entry.id}/legal-hold`, {
      headers: bearer(key),
      data: { hold: true, reason: 'audit' },
    });
    expect(held.status()).toBe(200);
  }
  return { entryId: entry.id, fileId: file.id as string };
}

/** Until the server lists each of `targets` (entries in `key`'s workspace) as past its retention. */
async function untilExpired(request: APIRequestContext, key: string, targets: { entryId: string }[]) {
  const listed = async () => {
    const res = await request.get('/silo/v1/entries?retention=expired', { headers: bearer(key) });
    return ((await res.json()).list as { id: string }[]).map((e) => e.id);
  };
  await expect.poll(listed, { timeout: EXPIRES_MS + 15_000 }).toEqual(expect.arrayContaining(targets.map((t) => t.entryId)));
}
const expiredOf = (cells: { kind: Kind; target: { entryId: string } }[]) => cells.filter((c) => c.kind === 'expired').map((c) => c.target);
const refusal = (kind: Kind) => (kind === 'hold' ? 'legal_hold' : 'retained');

/** Deletes the version, then the entry, as `send` does; both as `kind` and `override` say. */
async function deletesAnswer(
  send: (method: 'delete', url: string) => Promise<APIResponse>,
  t: { entryId: string; fileId: string },
  kind: Kind,
  override: boolean,
) {
  for (const url of [`/silo/v1/entries/${t.entryId}/files/${t.fileId}`, `/silo/v1/entries/${t.entryId}`]) {
    const res = await send('delete', url);
    if (kind === 'expired' || (kind === 'governance' && override)) expect(res.status(), `${kind} ${url}: ${await res.text()}`).toBe(204);
    else await expectError(res, 409, refusal(kind));
  }
}

test('members and keys: workspace key, enrollment token, console member — refused by kind; the header is 403', async ({
  request,
  admin,
  newOwner,
  playwright,
  server,
}) => {
  const owner = await newOwner();
  const key = owner.liveKey;
  const token = await enrollmentToken(admin, request, owner.id);
  const member = await newUser(admin, { owner_ids: [owner.id] });
  const ui = await signIn(playwright, server.url, member.email, member.password);
  const asMember = { Origin: server.url, 'X-Silo-Owner': owner.id };
  const callers = {
    key:
      (extra = {}) =>
      (m: 'delete', url: string) =>
        request[m](url, { headers: { ...bearer(key), ...extra } }),
    token:
      (extra = {}) =>
      (m: 'delete', url: string) =>
        request[m](url, { headers: { ...bearer(token), ...extra } }),
    member:
      (extra = {}) =>
      (m: 'delete', url: string) =>
        ui[m](url, { headers: { ...asMember, ...extra } }),
  };
  const cells = [];
  for (const who of Object.keys(callers) as (keyof typeof callers)[])
    for (const kind of KINDS) cells.push({ who, kind, target: await kept(request, key, kind) });
  await untilExpired(request, key, expiredOf(cells));
  for (const { who, kind, target } of cells) {
    // the header first: refused before anything is read, the version stays
    for (const url of [`/silo/v1/entries/${target.entryId}/files/${target.fileId}`, `/silo/v1/entries/${target.entryId}`])
      await expectError(await callers[who](BYPASS)('delete', url), 403, 'forbidden');
    await deletesAnswer(callers[who](), target, kind, false);
  }
  await ui.dispose();
  // each refusal recorded: two per refused cell (file, entry)
  const refused = (await (await request.get('/silo/v1/events?type=entry.delete_refused&limit=100', { headers: bearer(key) })).json()).list;
  expect(refused).toHaveLength(3 * 3);
});

test('administrators: a console administrator and the admin key override governance only, with the header', async ({
  request,
  admin,
  newOwner,
  playwright,
  server,
}) => {
  const owner = await newOwner();
  const key = owner.liveKey;
  const boss = await newUser(admin, { admin: true, owner_ids: [owner.id] });
  const ui = await signIn(playwright, server.url, boss.email, boss.password);
  const asBoss = { Origin: server.url, 'X-Silo-Owner': owner.id };
  const callers = {
    adminNoHeader: (m: 'delete', url: string) => ui[m](url, { headers: asBoss }),
    adminHeader: (m: 'delete', url: string) => ui[m](url, { headers: { Origin: server.url, ...BYPASS } }),
    adminKeyHeader: (m: 'delete', url: string) => admin[m](url, { headers: BYPASS }),
  };
  const cells = [];
  for (const who of Object.keys(callers) as (keyof typeof callers)[])
    for (const kind of KINDS) cells.push({ who, kind, target: await kept(request, key, kind) });
  const adminKeyAlone = await kept(request, key, 'expired');
  await untilExpired(request, key, [...expiredOf(cells), adminKeyAlone]);
  for (const { who, kind, target } of cells) await deletesAnswer(callers[who], target, kind, who !== 'adminNoHeader');
  await ui.dispose();
  // the admin key without the header reaches no workspace's data, even what any key could delete
  for (const url of [
    `/silo/v1/entries/${adminKeyAlone.entryId}/files/${adminKeyAlone.fileId}`,
    `/silo/v1/entries/${adminKeyAlone.entryId}`,
  ])
    await expectError(await admin.delete(url), 403, 'forbidden');
  const bypassed = (await (await request.get('/silo/v1/events?type=retention.bypassed', { headers: bearer(key) })).json()).list;
  expect(bypassed.map((e: { actor: { type: string } }) => e.actor.type).sort()).toEqual(['admin', 'admin_key']);
});

test('auditor: an auditor key deletes nothing, whatever the kind (403)', async ({ request, newOwner, admin }) => {
  const owner = await newOwner();
  const made = await request.post('/silo/v1/auditor-keys', {
    headers: bearer(owner.liveKey),
    data: { from: day(-1), to: day(1), expires_in: 3600, note: 'Audit' },
  });
  expect(made.status(), await made.text()).toBe(201);
  const auditor = bearer((await made.json()).key);
  for (const kind of KINDS) {
    const t = await kept(request, owner.liveKey, kind);
    // a read-only key, refused before the route looks at anything (lib/http/auth.ts, refuseAuditorWrite)
    for (const headers of [auditor, { ...auditor, ...BYPASS }])
      for (const url of [`/silo/v1/entries/${t.entryId}/files/${t.fileId}`, `/silo/v1/entries/${t.entryId}`])
        await expectError(await request.delete(url, { headers }), 403, 'read_only_key');
  }
  await expectError(await request.delete(`/admin/v1/owners/${owner.id}`, { headers: { ...auditor, ...BYPASS } }), 403, 'read_only_key');
  await expectError(await request.get('/admin/v1/deleted-chains', { headers: auditor }), 403, 'forbidden');
  expect((await admin.get(`/admin/v1/owners/${owner.id}`)).status()).toBe(200);
});

test('workspace: only administrators delete one; governance yields to the header and its override is kept after it', async ({
  request,
  admin,
  newOwner,
  playwright,
  server,
}) => {
  const boss = await newUser(admin, { admin: true });
  const ui = await signIn(playwright, server.url, boss.email, boss.password);
  const asBoss = { Origin: server.url };
  const made: { kind: Kind; owner: Awaited<ReturnType<typeof newOwner>>; by: 'console' | 'adminKey' }[] = [];
  const expired: { key: string; target: { entryId: string } }[] = [];
  for (const kind of KINDS)
    for (const by of ['console', 'adminKey'] as const) {
      const owner = await newOwner(`${kind} ${by}`);
      const target = await kept(request, owner.liveKey, kind);
      made.push({ kind, owner, by });
      if (kind === 'expired') expired.push({ key: owner.liveKey, target });
    }
  for (const { key, target } of expired) await untilExpired(request, key, [target]);
  for (const { kind, owner, by } of made) {
    const url = `/admin/v1/owners/${owner.id}`;
    const token = await enrollmentToken(admin, request, owner.id);
    const member = await newUser(admin, { owner_ids: [owner.id] });
    const memberConsole = await signIn(playwright, server.url, member.email, member.password);
    for (const res of [
      await request.delete(url, { headers: { ...bearer(owner.liveKey), ...BYPASS } }),
      await request.delete(url, { headers: bearer(token) }),
      await memberConsole.delete(url, { headers: { Origin: server.url, ...BYPASS } }),
    ])
      await expectError(res, 403, 'forbidden');
    await memberConsole.dispose();
    const send = (headers: Record<string, string>) =>
      by === 'console' ? ui.delete(url, { headers: { ...asBoss, ...headers } }) : admin.delete(url, { headers });
    if (kind === 'expired') {
      // nothing retained: either administrator deletes it, with the header or without
      const res = await send(by === 'console' ? {} : BYPASS);
      expect(res.status(), await res.text()).toBe(204);
      continue;
    }
    await expectError(await send({}), 409, refusal(kind)); // without the header
    const res = await send(BYPASS);
    if (kind === 'governance') expect(res.status(), await res.text()).toBe(204);
    else await expectError(res, 409, refusal(kind));
    if (kind !== 'governance') continue;
    // gone, and its override still there to read and check, by either administrator; not by a key
    const listed = await (await admin.get(`/admin/v1/deleted-chains?owner_id=${owner.id}`)).json();
    const live = listed.list[0].chains.find((c: { sandbox: boolean }) => !c.sandbox);
    expect(live).toMatchObject({
      verified: true,
      final_record: {
        type: 'retention.bypassed',
        actor: { type: by === 'console' ? 'admin' : 'admin_key' },
        data: { workspace: { id: owner.id }, version_count: 1 },
      },
    });
    expect((await ui.get(`/admin/v1/deleted-chains?owner_id=${owner.id}`, { headers: asBoss })).status()).toBe(200);
  }
  const survivor = made.find((m) => m.kind === 'compliance')?.owner.liveKey as string; // a workspace still there
  await expectError(await request.get('/admin/v1/deleted-chains', { headers: bearer(survivor) }), 403, 'forbidden');
  await ui.dispose();
});
