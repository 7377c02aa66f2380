// An endpoint's limits and traces (docs/api.md, Webhooks): at most WEBHOOKS_PER_ENVIRONMENT
// endpoints a workspace environment (409 beyond, under concurrent creations too), and the event log
// keeps a URL's origin only, never its path, query or userinfo; a record written before that shows
// its origin to an enrollment token (withoutEndpointUrls).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendEvent } from '../events/append-event';
import { listEvents } from '../events/list-events';
import { TEST_ACTOR } from '../testing/actor';
import { testDatabases, testWorld, type TestWorld } from '../testing/database';
import { createTestOwner } from '../testing/owner';
import { createWebhook, WEBHOOKS_PER_ENVIRONMENT, type WebhookSettings } from './create-webhook';
import { recordedUrl, withoutEndpointUrls } from './recorded-url';
import { secretBox } from './secret-box';
import { deleteWebhook, updateWebhook } from './update-webhook';

const settings: WebhookSettings = { rules: { allowHttp: true, allowPrivate: true }, box: secretBox('k'.repeat(40)) };
const SECRET_URL = 'http://user:pw@127.0.0.1:9/hooks/T0/B0/XXXXSECRET?token=s3cret#frag';

describe.each(testDatabases())('webhook endpoints on %s', (database) => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await testWorld({ database });
  });
  afterAll(() => w?.close());

  const create = (target: { ownerId: string; sandbox: boolean }, url = 'http://127.0.0.1:9/hook') =>
    createWebhook({ db: w.db.prisma, target, input: { url, types: ['*'], description: '' }, actor: TEST_ACTOR, settings });

  it(`refuses a workspace environment's endpoint past ${WEBHOOKS_PER_ENVIRONMENT} with 409, also when created at once`, async () => {
    const owner = (await createTestOwner(w.db.prisma, 'Many')).id;
    const live = { ownerId: owner, sandbox: false };
    for (let i = 0; i < WEBHOOKS_PER_ENVIRONMENT - 3; i++) await create(live);
    // five at once for the last three places
    const made = await Promise.allSettled(Array.from({ length: 5 }, () => create(live)));
    expect(made.filter((m) => m.status === 'fulfilled')).toHaveLength(3);
    const refused = made.filter((m) => m.status === 'rejected').map((m) => (m as PromiseRejectedResult).reason);
    for (const err of refused) {
      expect(err.status).toBe(409);
      expect(err.body()).toMatchObject({ code: 409, key: 'conflict', message: expect.stringMatching(/at most 20 webhooks/) });
    }
    expect(await w.db.prisma.webhook.count({ where: { ownerId: owner, sandbox: false } })).toBe(WEBHOOKS_PER_ENVIRONMENT);
    // nothing recorded for a refused creation
    expect(await w.db.prisma.event.count({ where: { ownerId: owner, sandbox: false, type: 'webhook.created' } })).toBe(
      WEBHOOKS_PER_ENVIRONMENT,
    );
    // the sandbox has its own, and a place freed is taken again
    await create({ ownerId: owner, sandbox: true });
    const one = await w.db.prisma.webhook.findFirstOrThrow({ where: { ownerId: owner, sandbox: false } });
    await deleteWebhook({ db: w.db.prisma, scope: { owners: [owner], sandbox: false }, id: one.id, actor: TEST_ACTOR });
    await create(live);
    await expect(create(live)).rejects.toMatchObject({ status: 409 });
  });

  it("records an endpoint's URL as its origin: no path, query or userinfo in webhook.* records", async () => {
    const owner = (await createTestOwner(w.db.prisma, 'Secret URL')).id;
    const chain = { ownerId: owner, sandbox: false };
    const hook = await create(chain, SECRET_URL);
    expect(hook.url).toBe(SECRET_URL);
    const scope = { owners: [owner], sandbox: false };
    await updateWebhook({
      db: w.db.prisma,
      scope,
      id: hook.id,
      patch: { url: 'http://127.0.0.1:9/other?key=k2' },
      actor: TEST_ACTOR,
      settings,
    });
    await deleteWebhook({ db: w.db.prisma, scope, id: hook.id, actor: TEST_ACTOR });
    const { list } = await listEvents(w.db.prisma, chain, { limit: 10 });
    expect(list.map((r) => [r.type, r.data])).toEqual([
      ['webhook.created', { webhook_id: hook.id, url: 'http://127.0.0.1:9', types: ['*'], description: '' }],
      ['webhook.updated', { webhook_id: hook.id, before: { url: 'http://127.0.0.1:9' }, after: { url: 'http://127.0.0.1:9' } }],
      ['webhook.deleted', { webhook_id: hook.id, url: 'http://127.0.0.1:9' }],
    ]);
    expect(JSON.stringify(list)).not.toMatch(/SECRET|s3cret|pw@|key=k2/);
    // as written: withoutEndpointUrls leaves them as they are (their hashes hold)
    for (const r of list) expect(withoutEndpointUrls(r)).toBe(r);
  });

  it("shows a record written with a whole URL (before origins) by its origin, to an enrollment token's reading", async () => {
    const owner = (await createTestOwner(w.db.prisma, 'Old records')).id;
    const chain = { ownerId: owner, sandbox: false };
    await appendEvent(w.db.prisma, {
      type: 'webhook.created',
      ...chain,
      actor: TEST_ACTOR,
      data: { webhook_id: 'x', url: SECRET_URL, types: ['*'], description: '' },
    });
    await appendEvent(w.db.prisma, {
      type: 'webhook.updated',
      ...chain,
      actor: TEST_ACTOR,
      data: { webhook_id: 'x', before: { url: SECRET_URL }, after: { url: 'https://a.example/p?k=1', disabled: true } },
    });
    await appendEvent(w.db.prisma, { type: 'entry.updated', ...chain, actor: TEST_ACTOR, data: { url: SECRET_URL } });
    const { list } = await listEvents(w.db.prisma, chain, { limit: 10 });
    const shown = list.map(withoutEndpointUrls);
    expect(shown[0].data).toEqual({ webhook_id: 'x', url: 'http://127.0.0.1:9', types: ['*'], description: '' });
    expect(shown[1].data).toEqual({
      webhook_id: 'x',
      before: { url: 'http://127.0.0.1:9' },
      after: { url: 'https://a.example', disabled: true },
    });
    // only webhook records: another record's data is the caller's own
    expect(shown[2]).toBe(list[2]);
    expect(shown[0].hash).toBe(list[0].hash);
  });

  it('keeps scheme, host and port of a URL, and nothing of a malformed one', () => {
    expect(recordedUrl('https://hooks.example.com:8443/a/b?c=d')).toBe('https://hooks.example.com:8443');
    expect(recordedUrl('https://[2606:4700::1]/x')).toBe('https://[2606:4700::1]');
    expect(recordedUrl('not a url')).toBe('');
  });
});
