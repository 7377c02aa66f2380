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
import { processSettingsOrExit } from '../lib/process-settings.mjs';

const percent = processSettingsOrExit().SILO_HEAP_GROWTH_PERCENT;
if (percent > 0) v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
