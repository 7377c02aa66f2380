// takeTurns (pglite-turns.ts): PGlite runs its queued statements back to back without returning
// to the event loop; with takeTurns a callback waiting for the loop runs after a few of them.
import { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { takeTurns } from './pglite-turns';

/** How many of 40 queued statements had finished when a callback queued behind them got to run. */
async function finishedBeforeTheLoop(lite: PGlite): Promise<number> {
  let done = 0;
  const all = Array.from({ length: 40 }, () => lite.query('SELECT pg_sleep(0.001)').then(() => done++));
  const seen = new Promise<number>((resolve) => setImmediate(() => resolve(done)));
  await Promise.all(all);
  return seen;
}

describe('takeTurns', () => {
  const opened: PGlite[] = [];
  const open = async () => {
    const lite = await PGlite.create();
    opened.push(lite);
    await lite.query('SELECT 1');
    return lite;
  };
  afterAll(async () => {
    for (const lite of opened) await lite.close();
  });

  it('without it, the event loop waits for every queued statement', async () => {
    expect(await finishedBeforeTheLoop(await open())).toBe(40);
  });

  it('with it, the event loop runs after a few statements', async () => {
    const lite = takeTurns(await open(), 4);
    expect(await finishedBeforeTheLoop(lite)).toBeLessThanOrEqual(8);
    // and every statement still runs, with its answer
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => lite.query<{ n: number }>('SELECT $1::int AS n', [i])));
    expect(answers.map((a) => a.rows[0].n)).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });
});
