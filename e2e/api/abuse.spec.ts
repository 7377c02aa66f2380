// Issue 9 (hostile review), items 6 and 12: rate limits that count the real client address,
// cannot be turned against the holder of the right secret, guard console sign-in, and a setup
// link that checks its token first and is spent exactly once under a race. Each describe starts
// its own server (own limits, own counters), on the project's database.
import { test, expect, type APIRequestContext, type PlaywrightWorkerArgs, type TestInfo } from '@playwright/test';
import { setupLinkIn, startServer, type SiloServer } from '../fixtures/server';
import { expectError } from './helpers';

const databaseOf = (info: TestInfo) => (info.project.use as { database?: 'pglite' | 'postgres' }).database ?? 'pglite';

/** A server of this describe's own, with `env`; the function returns it once started. */
function ownServer(env: Record<string, string>) {
  let server: SiloServer | undefined;
  test.beforeAll(async ({}, info) => {
    test.setTimeout(180_000);
    server = await startServer({ database: databaseOf(info), env });
  });
  test.afterAll(async () => server?.stop());
  return () => server!;
}

async function adminOf(playwright: PlaywrightWorkerArgs['playwright'], s: SiloServer) {
  return playwright.request.newContext({ baseURL: s.url, extraHTTPHeaders: { Authorization: `Bearer ${s.adminKey}` } });
}

async function ownerAndApp(admin: APIRequestContext, trusted = true) {
  const owner = await (await admin.post('/admin/v1/owners', { data: { name: 'Victim Co' } })).json();
  const app = await (await admin.post('/admin/v1/apps', { data: { name: 'Victim app', trusted } })).json();
  return { owner, app };
}

test.describe('authorize from an untrusted peer', () => {
  const server = ownServer({ RATE_LIMIT_AUTHORIZE_PER_MINUTE: '5' });

  test('X-Forwarded-For from a peer not in TRUSTED_PROXIES does not change the address', async ({ playwright }) => {
    const api = await playwright.request.newContext({ baseURL: server().url });
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      // a new client id and a new forwarded address each time: only the peer address is left
      const res = await api.post('/access/v1/enrollment/authorize', {
        data: { client_id: `app_guess${i}`, client_secret: 'silo_cs_guess', owner_id: '00000000-0000-4000-8000-000000000000' },
        headers: { 'X-Forwarded-For': `10.77.0.${i}`, 'X-Real-IP': `10.78.0.${i}` },
      });
      statuses.push(res.status());
      if (res.status() === 429) {
        await expectError(res, 429, 'rate_limited');
        expect(Number(res.headers()['retry-after'])).toBeGreaterThan(0);
      }
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    await api.dispose();
  });
});

test.describe('authorize behind a trusted proxy', () => {
  const server = ownServer({
    TRUSTED_PROXIES: '127.0.0.1,::1',
    RATE_LIMIT_AUTHORIZE_PER_MINUTE: '8',
    RATE_LIMIT_AUTHORIZE_FAILURES_PER_MINUTE: '3',
  });

  test("a stranger's wrong secrets never make the right secret answer 429", async ({ playwright }) => {
    const admin = await adminOf(playwright, server());
    const api = await playwright.request.newContext({ baseURL: server().url });
    const { owner, app } = await ownerAndApp(admin);
    const call = (secret: string, from: string) =>
      api.post('/access/v1/enrollment/authorize', {
        data: { client_id: app.client_id, client_secret: secret, owner_id: owner.id },
        headers: { 'X-Forwarded-For': from },
      });

    const stranger: number[] = [];
    for (let i = 0; i < 6; i++) stranger.push((await call('silo_cs_wrong', '203.0.113.9')).status());
    expect(stranger).toEqual([401, 401, 401, 429, 429, 429]);
    // the holder of the secret, elsewhere and even at the stranger's own address
    expect((await call(app.client_secret, '198.51.100.7')).status()).toBe(200);
    expect((await call(app.client_secret, '203.0.113.9')).status()).toBe(200);
    // the stranger's address runs out of calls altogether (8 a minute) ...
    await expectError(await call('silo_cs_wrong', '203.0.113.9'), 429, 'rate_limited');
    await expectError(await call(app.client_secret, '203.0.113.9'), 429, 'rate_limited');
    // ... while the application, from its own address, carries on
    expect((await call(app.client_secret, '198.51.100.7')).status()).toBe(200);

    // successes are limited per application (8 a minute), whatever address they come from
    const other = await ownerAndApp(admin);
    const runs: number[] = [];
    for (let i = 0; i < 9; i++)
      runs.push(
        (
          await api.post('/access/v1/enrollment/authorize', {
            data: { client_id: other.app.client_id, client_secret: other.app.client_secret, owner_id: other.owner.id },
            headers: { 'X-Forwarded-For': `192.0.2.${i + 1}` },
          })
        ).status(),
      );
    expect(runs).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 429]);
    await admin.dispose();
    await api.dispose();
  });
});

/** One sign-in attempt over next-auth's credentials callback: "ok" or next-auth's error text. */
async function signInAttempt(ctx: APIRequestContext, email: string, password: string, from: string): Promise<string> {
  const { csrfToken } = await (await ctx.get('/api/auth/csrf')).json();
  const res = await ctx.post('/api/auth/callback/credentials', {
    form: { csrfToken, email, password, json: 'true' },
    headers: { 'X-Forwarded-For': from },
    maxRedirects: 0,
  });
  const { url } = await res.json();
  const error = new URL(url).searchParams.get('error');
  if (!error) expect((await (await ctx.get('/api/auth/session')).json()).user?.email).toBe(email);
  return error ?? 'ok';
}

test.describe('console sign-in limits', () => {
  const server = ownServer({ TRUSTED_PROXIES: '127.0.0.1,::1' });

  async function newUser(playwright: PlaywrightWorkerArgs['playwright']) {
    const admin = await adminOf(playwright, server());
    const email = `limited-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const res = await admin.post('/admin/v1/users', { data: { email, name: 'L', password: 'the right password' } });
    expect(res.status(), await res.text()).toBe(201);
    await admin.dispose();
    return email;
  }

  test('ten failures lock the account for unknown browsers, right password included, but not its known browser', async ({ playwright }) => {
    const email = await newUser(playwright);
    const known = await playwright.request.newContext({ baseURL: server().url });
    expect(await signInAttempt(known, email, 'the right password', '192.0.2.10')).toBe('ok');
    const { csrfToken } = await (await known.get('/api/auth/csrf')).json();
    await known.post('/api/auth/signout', { form: { csrfToken, json: 'true' }, maxRedirects: 0 });
    expect(await (await known.get('/api/auth/session')).json()).toEqual({});

    const stranger = await playwright.request.newContext({ baseURL: server().url });
    for (let i = 0; i < 10; i++) expect(await signInAttempt(stranger, email, `guess ${i}`, '203.0.113.20')).toBe('CredentialsSignin');
    expect(await signInAttempt(stranger, email, 'the right password', '203.0.113.20')).toMatch(
      /^Too many attempts; try again in 1[45] min$/,
    );
    expect(await (await stranger.get('/api/auth/session')).json()).toEqual({});
    // any browser that never signed in to this account waits too (the lock is per account) ...
    const fresh = await playwright.request.newContext({ baseURL: server().url });
    expect(await signInAttempt(fresh, email, 'the right password', '198.51.100.30')).toMatch(/^Too many attempts/);
    // ... but the owner's own browser signs in, from anywhere
    expect(await signInAttempt(known, email, 'the right password', '198.51.100.31')).toBe('ok');
    for (const c of [known, stranger, fresh]) await c.dispose();
  });

  test('fifty failures from one address lock it for every account, other addresses go on', async ({ playwright }) => {
    const email = await newUser(playwright);
    const sprayer = await playwright.request.newContext({ baseURL: server().url });
    for (let i = 0; i < 50; i++)
      expect(await signInAttempt(sprayer, `nobody-${i}@example.com`, 'password1', '203.0.113.77')).toBe('CredentialsSignin');
    expect(await signInAttempt(sprayer, email, 'the right password', '203.0.113.77')).toMatch(/^Too many attempts/);
    const elsewhere = await playwright.request.newContext({ baseURL: server().url });
    expect(await signInAttempt(elsewhere, email, 'the right password', '198.51.100.40')).toBe('ok');
    await sprayer.dispose();
    await elsewhere.dispose();
  });
});

test.describe('the setup link', () => {
  const ROUNDS = 10;
  const RACERS = 20;

  test(`${RACERS} concurrent uses of the setup link: one 201, the rest 403 (${ROUNDS} fresh servers)`, async ({ playwright }, info) => {
    test.setTimeout(ROUNDS * 120_000);
    for (let round = 0; round < ROUNDS; round++) {
      const s = await startServer({ database: databaseOf(info) });
      try {
        let link: string | undefined;
        await expect.poll(() => (link = setupLinkIn(s.output())), { timeout: 20_000 }).toBeTruthy();
        const token = new URL(link!).searchParams.get('token');
        const api = await playwright.request.newContext({ baseURL: s.url });
        const answers = await Promise.all(
          Array.from({ length: RACERS }, (_, i) =>
            api.post('/admin/v1/setup', {
              data: { token, name: `Racer ${i}`, email: `racer-${i}@example.com`, password: 'a long password' },
            }),
          ),
        );
        const statuses = answers.map((r) => r.status()).sort();
        expect(statuses, `round ${round}`).toEqual([201, ...Array(RACERS - 1).fill(403)]);
        for (const r of answers) if (r.status() === 403) await expectError(r, 403, 'forbidden');
        await api.dispose();
      } finally {
        await s.stop();
      }
    }
  });
});
