// A burst of writes waits its turn for the database's connections (DATABASE_WAIT_SECONDS) instead
// of failing: 200 entries created at once, on the embedded database's one connection and on
// PostgreSQL's ten, all answer 201 and all are listed. Prisma's own 2 s wait for a transaction once
// answered 500 to a few dozen of them on a loaded machine. Past the wait the answer is 503 `busy`
// with Retry-After, never 500 (lib/db/busy.test.ts holds every connection to see it).
import { bearer, expect, test } from '../fixtures';
import { createEntry } from './helpers';

const BURST = 200;

test('200 entries created at once: every one 201, every one listed', async ({ request, newOwner }) => {
  const owner = await newOwner('Burst Co');
  // Each 201, or the test fails with the answer's body.
  await Promise.all(
    Array.from({ length: BURST }, (_, i) => createEntry(request, owner.liveKey, { name: `Burst ${i}`, folder: `burst/b${i % 17}` })),
  );

  const names = new Set<string>();
  let cursor: string | undefined;
  do {
    const res = await request.get(`/silo/v1/entries?limit=100${cursor ? `&cursor=${cursor}` : ''}`, { headers: bearer(owner.liveKey) });
    expect(res.status()).toBe(200);
    const page = (await res.json()) as { list: { name: string }[]; next_cursor?: string };
    for (const e of page.list) names.add(e.name);
    cursor = page.next_cursor;
  } while (cursor);
  expect(names.size).toBe(BURST);
});
