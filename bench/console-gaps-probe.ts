// Probe (issue 11): where the console's click → stored time goes, from the page's own clock: the
// row's status timeline (as bench/console-vs-curl.ts sees it) beside the Resource Timing of the
// placeholder POST and the PUT, so the queue's and React's own waits between them show.
// Run: npx tsx bench/console-gaps-probe.ts   (ROUNDS=…)
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { consoleUpload, consoleWorld } from './console-world';
import { MB, diskWriteMBps } from './measure';

const SIZE = Number(process.env.BENCH_BYTES ?? 200 * MB);

async function main() {
  const dir = path.resolve('tmp', 'bench-console-gaps-probe');
  await mkdir(dir, { recursive: true });
  const source = path.join(dir, 'dropped.bin');
  await diskWriteMBps(source, SIZE);
  const world = await consoleWorld();
  try {
    for (let round = 0; round < Number(process.env.ROUNDS ?? 2); round++) {
      const entry = await world.newEntry(`gaps ${round}`);
      const t = await consoleUpload(world, entry, source);
      const r = await world.page.evaluate(() => {
        const w = window as unknown as { benchTimes: [string, number][] };
        const click = w.benchTimes.find(([s]) => s === 'click')![1];
        const res = performance
          .getEntriesByType('resource')
          .filter((e) => (e as PerformanceResourceTiming).initiatorType === 'xmlhttprequest' || e.name.includes('/files'))
          .filter((e) => e.startTime >= click)
          .map((e) => {
            const x = e as PerformanceResourceTiming;
            return {
              name: x.name.replace(/\?.*/, '').slice(-60),
              type: x.initiatorType,
              start: x.startTime - click,
              requestStart: x.requestStart - click,
              responseStart: x.responseStart - click,
              end: x.responseEnd - click,
            };
          });
        return res;
      });
      console.log(`round ${round}: ${t.map((x) => `${x.status}@${x.ms.toFixed(0)}`).join(' ')}`);
      for (const e of r)
        console.log(
          `   ${e.type.padEnd(15)} ${e.name.padEnd(60)} start ${e.start.toFixed(0)} reqStart ${e.requestStart.toFixed(0)} respStart ${e.responseStart.toFixed(0)} end ${e.end.toFixed(0)}`,
        );
      await world.deleteEntry(entry);
    }
  } finally {
    await world.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
