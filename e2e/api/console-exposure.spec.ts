// Issue 9 (hostile review), items 14 and 15: a console member sees only the applications
// enrolled in its workspaces; console pages cannot be framed and leak no full URL in Referer,
// while the API keeps its own headers.
import type { APIRequestContext } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { bearer, expect, test } from '../fixtures';
import { b64, createEntry, inlineFile, signIn } from './helpers';

async function newApp(admin: APIRequestContext, name: string) {
  const res = await admin.post('/admin/v1/apps', { data: { name, trusted: true } });
  expect(res.status()).toBe(201);
  return res.json();
}

test.describe("a member's view", () => {
  test('a member lists only the applications enrolled in its workspaces', async ({ admin, request, newOwner, playwright, server }) => {
    const a = await newOwner('Member workspace');
    const b = await newOwner('Other workspace');
    const inA = await newApp(admin, 'Enrolled in A');
    const inBoth = await newApp(admin, 'Enrolled in A and B');
    const inB = await newApp(admin, 'Enrolled in B only');
    const nowhere = await newApp(admin, 'Enrolled nowhere');
    const enroll = async (app: { client_id: string; client_secret: string }, ownerId: string) => {
      const res = await request.post('/access/v1/enrollment/authorize', {
        data: { client_id: app.client_id, client_secret: app.client_secret, owner_id: ownerId },
      });
      expect(res.status()).toBe(200);
      return res.json();
    };
    await enroll(inA, a.id);
    await enroll(inBoth, a.id);
    await enroll(inBoth, b.id);
    const enrolledInB = await enroll(inB, b.id);

    const email = `m-${randomUUID().slice(0, 8)}@example.com`;
    expect(
      (await admin.post('/admin/v1/users', { data: { email, name: 'M', password: 'member password', owner_ids: [a.id] } })).status(),
    ).toBe(201);
    const member = await signIn(playwright, server.url, email, 'member password');

    const ids = async (ctx: APIRequestContext, path: string) =>
      ((await (await ctx.get(path)).json()).list as Array<{ id: string }>).map((x) => x.id);
    expect(await ids(member, '/admin/v1/apps')).toEqual([inBoth.id, inA.id]);
    // pages of one keep to the same set
    const first = await (await member.get('/admin/v1/apps?limit=1')).json();
    const second = await (await member.get(`/admin/v1/apps?limit=1&cursor=${first.next_cursor}`)).json();
    expect([...first.list, ...second.list].map((x: { id: string }) => x.id)).toEqual([inBoth.id, inA.id]);
    expect(second.next_cursor).toBeUndefined();
    // administrators (key or session) see every application
    const all = await ids(admin, '/admin/v1/apps?limit=100');
    for (const app of [inA, inBoth, inB, nowhere]) expect(all).toContain(app.id);
    // the member's other admin reads stay inside its workspaces too
    expect(await ids(member, `/admin/v1/enrollments?app_id=${inB.id}`)).toEqual([]);
    expect(await ids(member, `/admin/v1/enrollments?owner_id=${b.id}`)).toEqual([]);
    expect(
      (
        await member.patch(`/admin/v1/enrollments/${enrolledInB.id}`, { headers: { Origin: server.url }, data: { disabled: true } })
      ).status(),
    ).toBe(404);
    expect(await ids(member, '/admin/v1/owners')).toEqual([a.id]);
    expect((await member.get('/admin/v1/users')).status()).toBe(403);
    await member.dispose();
  });
});

test.describe('console page headers', () => {
  test('console pages forbid framing and cross-site referrers; the API keeps its own headers', async ({ request, newOwner }) => {
    for (const path of ['/signin', '/setup', '/', '/workspaces']) {
      const res = await request.get(path, { maxRedirects: 0 });
      const h = res.headers();
      expect(h['content-security-policy'], path).toContain("frame-ancestors 'none'");
      expect(h['x-frame-options'], path).toBe('DENY');
      expect(h['referrer-policy'], path).toBe('same-origin');
      expect(h['x-content-type-options'], path).toBe('nosniff');
    }
    // JSON endpoints are unchanged
    for (const path of ['/utils/v1/ping', '/silo/v1/entries', '/admin/v1/apps', '/api/auth/csrf', '/openapi.json']) {
      const h = (await request.get(path)).headers();
      expect(h['x-frame-options'], path).toBeUndefined();
      expect(h['content-security-policy'], path).toBeUndefined();
    }
    // file bytes keep exactly their sandbox policy
    const owner = await newOwner();
    const entry = await createEntry(request, owner.liveKey);
    const file = await inlineFile(request, owner.liveKey, entry.id, { name: 'a.html', mime: 'text/html', data: b64('<script>1</script>') });
    for (const url of [file.url, `/silo/v1/entries/${entry.id}/files/${file.id}`]) {
      const h = (await request.get(url, { headers: bearer(owner.liveKey) })).headers();
      expect(h['content-security-policy'], url).toMatch(/^sandbox; /);
      expect(h['content-security-policy'], url).not.toContain('frame-ancestors');
      expect(h['x-frame-options'], url).toBeUndefined();
    }
  });
});
