// Imported by serve.mjs before the app: how far V8 lets the JavaScript heap grow past what the
// last full collection kept alive before it collects again. V8's own factor is dynamic and reaches
// 3–4× under a steady allocation rate, so a server whose live heap is ~120 MB (Next, the app, its
// bounded caches) grew by 250–300 MB of garbage under the small-request benchmark before each full
// collection (measured with bench/memory-probe.cjs). 30 % holds that growth to a few tens of MB
// for the cost of more frequent full collections (marking runs mostly on V8's helper threads).
// SILO_HEAP_GROWTH_PERCENT=0 leaves V8's own factor. The flag is process-wide: the embedded
// database's thread gets it too. V8 reads it at every full collection, so setting it here, after
// start-up, takes effect from the next one.
import v8 from 'node:v8';

const raw = process.env.SILO_HEAP_GROWTH_PERCENT || '30'; // empty: unset
const percent = Number(raw);
if (!Number.isInteger(percent) || percent < 0 || percent > 1000) {
  console.error(`Silo cannot start: SILO_HEAP_GROWTH_PERCENT must be an integer from 0 to 1000 (0: V8's own), not ${JSON.stringify(raw)}`);
  process.exit(1);
}
if (percent > 0) v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
