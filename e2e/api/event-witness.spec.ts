// Every answer of a write that appended a record names it (docs/api.md, Events, "Witnesses"):
// Silo-Event: chain="<owner>/live", seq=N, hash="…", the record /events then shows at that seq;
// and each record's sig checks out with the public audit key alone, as docs/api.md shows.
import { createPublicKey, verify } from 'node:crypto';
import type { APIResponse } from '@playwright/test';
import { canonicalJson, type Json } from '../../lib/events/canonical-json';
import { startReceiver } from '../../lib/testing/webhook-receiver';
import { bearer, expect, test, WEBHOOKS_TO_LOOPBACK } from '../fixtures';
import { b64, createEntry, sha256 } from './helpers';

test.use({ serverEnv: WEBHOOKS_TO_LOOPBACK });

const WITNESS = /^chain="([0-9a-f-]{36})\/live", seq=(\d+), hash="([0-9a-f]{64})"$/;

test('every write that makes a record names it in Silo-Event; every record carries a good sig', async ({
  request,
  newOwner,
  playwright,
}) => {
  const owner = await newOwner('Witnessed');
  const key = owner.liveKey;
  const auth = bearer(key);
  const named: { what: string; seq: number; hash: string }[] = [];
  const expectNamed = async (what: string, res: APIResponse) => {
    expect(res.status(), `${what}: ${await res.text()}`).toBeLessThan(300);
    const m = WITNESS.exec(res.headers()['silo-event'] ?? '');
    expect(m, `${what} names no record: ${res.headers()['silo-event']}`).not.toBeNull();
    expect(m?.[1]).toBe(owner.id);
    named.push({ what, seq: Number(m?.[2]), hash: m?.[3] as string });
    return res;
  };
  const entry = await createEntry(request, key, { name: 'Witnessed 1' });
  const created = await request.post('/silo/v1/entries', { headers: auth, data: { name: 'Witnessed 2' } });
  await expectNamed('entry create', created);
  const second = await created.json();
  await expectNamed('entry patch', await request.patch(`/silo/v1/entries/${entry.id}`, { headers: auth, data: { folder: 'w' } }));
  const file = (f: string) => ({ name: 'inv.xml', category: 'format', key: 'xml', mime: 'application/xml', data: b64(f) });
  const v1 = await (
    await expectNamed('inline file', await request.post(`/silo/v1/entries/${entry.id}/files`, { headers: auth, data: file('<a/>') }))
  ).json();
  await expectNamed('replace', await request.post(`/silo/v1/entries/${entry.id}/files`, { headers: auth, data: file('<b/>') }));
  const placeholder = await (
    await expectNamed(
      'placeholder',
      await request.post(`/silo/v1/entries/${entry.id}/files`, {
        headers: auth,
        data: { name: 'scan.pdf', mime: 'application/pdf', sha256: sha256('%PDF-1.7'), size: 8 },
      }),
    )
  ).json();
  await expectNamed(
    'upload PUT',
    await request.put(placeholder.url, { data: Buffer.from('%PDF-1.7'), headers: { 'Content-Type': 'application/pdf' } }),
  );
  await expectNamed(
    'file patch',
    await request.patch(`/silo/v1/entries/${entry.id}/files/${v1.id}`, { headers: auth, data: { desc: 'x' } }),
  );
  await expectNamed(
    'link create',
    await request.post(`/silo/v1/entries/${entry.id}/files/${v1.id}/links`, { headers: auth, data: { expires_in: 60 } }),
  );
  await expectNamed('links revoke', await request.delete(`/silo/v1/entries/${entry.id}/files/${v1.id}/links`, { headers: auth }));
  await expectNamed('restore', await request.post(`/silo/v1/entries/${entry.id}/files/${v1.id}/restore`, { headers: auth }));
  await expectNamed('file delete', await request.delete(`/silo/v1/entries/${entry.id}/files/${v1.id}`, { headers: auth }));
  await expectNamed(
    'legal hold',
    await request.put(`/silo/v1/entries/${second.id}/legal-hold`, { headers: auth, data: { hold: true, reason: 'audit' } }),
  );
  await expectNamed(
    'legal hold off',
    await request.put(`/silo/v1/entries/${second.id}/legal-hold`, { headers: auth, data: { hold: false } }),
  );
  const rx = await startReceiver();
  try {
    await expectNamed('webhook create', await request.post('/silo/v1/webhooks', { headers: auth, data: { url: rx.url } }));
  } finally {
    await rx.close();
  }
  await expectNamed('entry delete', await request.delete(`/silo/v1/entries/${entry.id}`, { headers: auth }));
  // a read names nothing
  expect((await request.get(`/silo/v1/entries/${second.id}`, { headers: auth })).headers()['silo-event']).toBeUndefined();

  const records = (await (await request.get('/silo/v1/events?limit=100', { headers: auth })).json()).list as (Record<string, Json> & {
    seq: number;
    hash: string;
    sig?: string;
  })[];
  for (const n of named) expect(records.find((r) => r.seq === n.seq)?.hash, n.what).toBe(n.hash);
  expect(new Set(named.map((n) => n.seq)).size).toBe(named.length);

  // docs/api.md: a record's sig, checked with GET /utils/v1/audit-key's public key
  const anon = await playwright.request.newContext();
  const pub = createPublicKey((await (await anon.get('/utils/v1/audit-key')).json()).public_key);
  await anon.dispose();
  for (const r of records) {
    const signed = canonicalJson({ actor: r.actor, id: r.id, request_id: r.request_id, type: r.type });
    expect(verify(null, Buffer.from(signed), pub, Buffer.from(r.sig ?? '', 'base64')), `record ${r.seq}`).toBe(true);
  }
});
