// Preloaded into the measured server with BENCH_MEMORY=file (NODE_OPTIONS=--require …): every
// 500 ms, each thread appends one JSON line of its own V8 heap, and the main thread adds the
// process's resident memory split by kind of mapping, read from /proc/self/smaps:
// - wasm: mappings of 4 GiB or more (a WebAssembly memory reserves its whole address range; only
//   the pages it touched are resident), i.e. the embedded database's heap;
// - heap: the C allocator's [heap] (malloc's main arena);
// - anon: every other anonymous mapping (V8's pages, malloc's thread arenas, libuv's buffers);
// - file: mapped files (the binary, shared libraries).
const { appendFileSync, readFileSync } = require('node:fs');
const { threadId } = require('node:worker_threads');

const file = process.env.BENCH_MEMORY;
const GiB4 = 4 * 1024 ** 3;

function smaps() {
  const kinds = { wasm: 0, heap: 0, anon: 0, file: 0 };
  let kind = 'anon';
  for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \d+\s*(.*)$/.exec(line);
    if (head) {
      const size = Number.parseInt(head[2], 16) - Number.parseInt(head[1], 16);
      const name = head[3];
      kind = size >= GiB4 ? 'wasm' : name === '[heap]' ? 'heap' : name.startsWith('/') ? 'file' : 'anon';
      continue;
    }
    if (line.startsWith('Rss:')) kinds[kind] += Number(line.split(/\s+/)[1]) * 1024;
  }
  return kinds;
}

function sample() {
  const m = process.memoryUsage();
  const line = {
    t: Date.now(),
    thread: threadId,
    heapTotal: m.heapTotal,
    heapUsed: m.heapUsed,
    external: m.external,
    arrayBuffers: m.arrayBuffers,
  };
  if (threadId === 0) Object.assign(line, { rss: m.rss, ...smaps() });
  appendFileSync(file, `${JSON.stringify(line)}\n`);
}
if (file) setInterval(sample, 500).unref();
