// Retention over HTTP (docs/api.md, Retention): rules per workspace and environment (keys and
// console users manage them, enrollment tokens only read), each version's retention and hold on
// its record, 409 retained / legal_hold with the refusal on the record, governance overridden by
// an administrator or the admin key with the header, compliance by no one, ?retention=expired.
import { bearer, expect, test } from '../fixtures';
import { b64, createEntry, enrollmentToken, expectError, inlineFile, newUser, signIn } from './helpers';

const BYPASS = { 'X-Silo-Bypass-Governance-Retention': 'true' };
const inYears = (n: number) => new Date(Date.now() + n * 365 * 86_400_000).toISOString();

test('rules: keys and members manage them, tokens read, limits ±1 answer 422, each change is recorded', async ({
  request,
  admin,
  newOwner,
  playwright,
  server,
}) => {
  const owner = await newOwner();
  const key = bearer(owner.liveKey);
  const made = await request.post('/silo/v1/retention-rules', {
    headers: key,
    data: { years: 10, from: 'end_of_year', mode: 'compliance' },
  });
  expect(made.status(), await made.text()).toBe(201);
  const rule = await made.json();
  expect(rule).toMatchObject({ years: 10, days: 0, from: 'end_of_year', mode: 'compliance' });
  expect(made.headers().location).toBe(`/silo/v1/retention-rules/${rule.id}`);
  for (const bad of [{ years: 101 }, { years: -1 }, { days: 36_501 }, { days: -1 }, { mode: 'legal' }, { from: 'now' }]) {
    const body = await expectError(await request.post('/silo/v1/retention-rules', { headers: key, data: bad }), 422, 'validation');
    expect(Object.keys(body.fields ?? {}).length).toBeGreaterThan(0);
  }
  expect((await request.post('/silo/v1/retention-rules', { headers: key, data: { years: 100, days: 36_500 } })).status()).toBe(201);
  // the sandbox has its own
  expect((await (await request.get('/silo/v1/retention-rules', { headers: bearer(owner.sandboxKey) })).json()).list).toEqual([]);

  const token = bearer(await enrollmentToken(admin, request, owner.id));
  expect((await (await request.get('/silo/v1/retention-rules', { headers: token })).json()).list.length).toBe(2);
  await expectError(await request.post('/silo/v1/retention-rules', { headers: token, data: { years: 1 } }), 403, 'forbidden');
  await expectError(await request.delete(`/silo/v1/retention-rules/${rule.id}`, { headers: token }), 403, 'forbidden');

  // a member of the workspace manages them in the console; another workspace's key finds nothing
  const member = await newUser(admin, { owner_ids: [owner.id] });
  const ctx = await signIn(playwright, server.url, member.email, member.password);
  const headers = { Origin: server.url, 'X-Silo-Owner': owner.id };
  expect((await ctx.delete(`/silo/v1/retention-rules/${rule.id}`, { headers })).status()).toBe(204);
  await ctx.dispose();
  const other = await newOwner('Other');
  await expectError(await request.delete(`/silo/v1/retention-rules/${rule.id}`, { headers: bearer(other.liveKey) }), 404, 'not_found');

  const events = (await (await request.get('/silo/v1/events?type=retention_rule.created', { headers: key })).json()).list;
  expect(events.map((e: { data: { years: number } }) => e.data.years)).toEqual([10, 100]);
  const deleted = (await (await request.get('/silo/v1/events?type=retention_rule.deleted', { headers: key })).json()).list;
  expect(deleted).toMatchObject([{ actor: { type: 'user' }, data: { id: rule.id } }]);
});

test('a version shows its retention and hold; deletes are refused, recorded, and overridden only as the rules say', async ({
  request,
  admin,
  newOwner,
  playwright,
  server,
}) => {
  const owner = await newOwner();
  const key = bearer(owner.liveKey);
  expect((await request.post('/silo/v1/retention-rules', { headers: key, data: { years: 8, from: 'end_of_year' } })).status()).toBe(201);
  const entry = await createEntry(request, owner.liveKey, { name: 'Invoice' });
  const gov = await inlineFile(request, owner.liveKey, entry.id, { name: 'gov.xml', data: b64('<Invoice/>') });
  const end = new Date(Date.UTC(new Date(gov.created_at).getUTCFullYear() + 9, 0, 1)).toISOString();
  expect(gov).toMatchObject({ retention: { mode: 'governance', retain_until: end }, legal_hold: false });
  // asked shorter than the rule: 422; longer and compliance: kept
  const short = await request.post(`/silo/v1/entries/${entry.id}/files`, {
    headers: key,
    data: { name: 's.xml', data: b64('s'), retain_until: inYears(1) },
  });
  expect((await expectError(short, 422, 'validation')).fields).toHaveProperty('retain_until');
  const comp = await inlineFile(request, owner.liveKey, entry.id, {
    name: 'comp.xml',
    data: b64('<Invoice>c</Invoice>'),
    retain_until: inYears(20),
    retention_mode: 'compliance',
  });
  expect(comp.retention.mode).toBe('compliance');

  // refused: 409 retained with the date, recorded
  const refused = await expectError(
    await request.delete(`/silo/v1/entries/${entry.id}/files/${gov.id}`, { headers: key }),
    409,
    'retained',
  );
  expect(refused.message).toContain(end);
  await expectError(await request.delete(`/silo/v1/entries/${entry.id}`, { headers: key }), 409, 'retained');
  const types = (await (await request.get(`/silo/v1/events?entry_id=${entry.id}&order=desc&limit=2`, { headers: key })).json()).list.map(
    (e: { type: string }) => e.type,
  );
  expect(types).toEqual(['entry.delete_refused', 'file.delete_refused']);
  // PATCH extends, never shortens; compliance never becomes governance
  await expectError(
    await request.patch(`/silo/v1/entries/${entry.id}/files/${gov.id}`, { headers: key, data: { retain_until: inYears(1) } }),
    422,
  );
  await expectError(
    await request.patch(`/silo/v1/entries/${entry.id}/files/${comp.id}`, { headers: key, data: { retention_mode: 'governance' } }),
    422,
  );
  const longer = await request.patch(`/silo/v1/entries/${entry.id}/files/${gov.id}`, { headers: key, data: { retain_until: inYears(30) } });
  expect(longer.status(), await longer.text()).toBe(200);

  // the override: a key may not ask for it; the admin key and a console administrator may, for governance only
  await expectError(
    await request.delete(`/silo/v1/entries/${entry.id}/files/${gov.id}`, { headers: { ...key, ...BYPASS } }),
    403,
    'forbidden',
  );
  await expectError(await admin.delete(`/silo/v1/entries/${entry.id}/files/${gov.id}`), 403, 'forbidden'); // no header: no silo data
  await expectError(await admin.delete(`/silo/v1/entries/${entry.id}/files/${comp.id}`, { headers: BYPASS }), 409, 'retained');
  const boss = await newUser(admin, { admin: true });
  const ctx = await signIn(playwright, server.url, boss.email, boss.password);
  const asBoss = { Origin: server.url, ...BYPASS };
  expect((await ctx.delete(`/silo/v1/entries/${entry.id}/files/${gov.id}`, { headers: asBoss })).status()).toBe(204);
  await ctx.dispose();
  const bypassed = (await (await request.get('/silo/v1/events?type=retention.bypassed', { headers: key })).json()).list;
  expect(bypassed).toMatchObject([{ actor: { type: 'admin' }, file_id: gov.id }]);

  // a legal hold: recorded, shown, refuses even the override; lifted, the admin key may override governance again
  const held = await request.put(`/silo/v1/entries/${entry.id}/legal-hold`, { headers: key, data: { hold: true, reason: 'Tax audit' } });
  expect(await held.json()).toEqual({ entry_id: entry.id, hold: true, reason: 'Tax audit' });
  const shown = await (await request.get(`/silo/v1/entries/${entry.id}`, { headers: key })).json();
  expect(shown).toMatchObject({ legal_hold: true, legal_hold_reason: 'Tax audit', attachments: [{ legal_hold: true }] });
  await expectError(await admin.delete(`/silo/v1/entries/${entry.id}`, { headers: BYPASS }), 409, 'legal_hold');
  const token = bearer(await enrollmentToken(admin, request, owner.id));
  await expectError(
    await request.put(`/silo/v1/entries/${entry.id}/legal-hold`, { headers: token, data: { hold: false } }),
    403,
    'forbidden',
  );
  expect((await request.put(`/silo/v1/entries/${entry.id}/legal-hold`, { headers: key, data: { hold: false } })).status()).toBe(200);
  const holdEvents = (await (await request.get(`/silo/v1/events?entry_id=${entry.id}`, { headers: key })).json()).list
    .map((e: { type: string }) => e.type)
    .filter((t: string) => t.startsWith('legal_hold'));
  expect(holdEvents).toEqual(['legal_hold.set', 'legal_hold.cleared']);
  await expectError(await admin.delete(`/silo/v1/entries/${entry.id}`, { headers: BYPASS }), 409, 'retained'); // comp is compliance
});

test('?retention=expired lists what may now be deleted; nothing is deleted by itself', async ({ request, newOwner }) => {
  const owner = await newOwner();
  const key = bearer(owner.liveKey);
  const entry = await createEntry(request, owner.liveKey, { name: 'Soon' });
  const f = await inlineFile(request, owner.liveKey, entry.id, {
    name: 'a.xml',
    data: b64('a'),
    retain_until: new Date(Date.now() + 1500).toISOString(),
  });
  const expired = async () => (await (await request.get('/silo/v1/entries?retention=expired', { headers: key })).json()).list;
  expect(await expired()).toEqual([]);
  await expectError(await request.delete(`/silo/v1/entries/${entry.id}/files/${f.id}`, { headers: key }), 409, 'retained');
  await expect.poll(async () => (await expired()).map((e: { id: string }) => e.id)).toEqual([entry.id]);
  await expectError(await request.get('/silo/v1/entries?retention=soon', { headers: key }), 422);
  expect((await request.delete(`/silo/v1/entries/${entry.id}/files/${f.id}`, { headers: key })).status()).toBe(204);
});

test('a workspace holding a retained version is not deleted; governance yields to the override, compliance never', async ({
  request,
  admin,
  newOwner,
}) => {
  for (const mode of ['governance', 'compliance'] as const) {
    const owner = await newOwner(mode);
    const entry = await createEntry(request, owner.liveKey, { name: 'Kept' });
    await inlineFile(request, owner.liveKey, entry.id, { name: 'k.xml', data: b64(mode), retain_until: inYears(1), retention_mode: mode });
    const refused = await expectError(await admin.delete(`/admin/v1/owners/${owner.id}`), 409, 'retained');
    expect(refused.message).toContain(mode);
    await expectError(await request.delete(`/admin/v1/owners/${owner.id}`, { headers: bearer(owner.liveKey) }), 403, 'forbidden');
    const events = (await (await request.get('/silo/v1/events?type=workspace.delete_refused', { headers: bearer(owner.liveKey) })).json())
      .list;
    expect(events).toMatchObject([{ actor: { type: 'admin_key' }, data: { reason: 'retained', mode } }]);
    const overridden = await admin.delete(`/admin/v1/owners/${owner.id}`, { headers: BYPASS });
    if (mode === 'governance') expect(overridden.status(), await overridden.text()).toBe(204);
    else await expectError(overridden, 409, 'retained');
    expect((await admin.get(`/admin/v1/owners/${owner.id}`)).status()).toBe(mode === 'governance' ? 404 : 200);
  }
});
