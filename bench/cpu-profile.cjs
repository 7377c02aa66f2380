// Preloaded into the measured server with BENCH_PROFILE=dir (NODE_OPTIONS=--require …, which
// refuses --cpu-prof): a V8 CPU profile of the whole run, written when the process exits.
const { Session } = require('node:inspector');
const { writeFileSync } = require('node:fs');
const path = require('node:path');
const { threadId } = require('node:worker_threads');

const session = new Session();
session.connect();
session.post('Profiler.enable');
session.post('Profiler.setSamplingInterval', { interval: 1000 });
// BENCH_PROFILE_AFTER_MS: start late, to leave the start-up (initdb, migrations) out of the profile
const after = Number(process.env.BENCH_PROFILE_AFTER_MS ?? 0);
if (after > 0) setTimeout(() => session.post('Profiler.start'), after).unref();
else session.post('Profiler.start');
// Preloaded into every thread (the embedded database's too): one file per thread.
const name = threadId ? `server-${process.pid}-thread-${threadId}.cpuprofile` : `server-${process.pid}.cpuprofile`;
let stopped = false;
const stop = () => {
  if (stopped) return;
  stopped = true;
  // A session on the process's own thread answers synchronously, so this runs before exit.
  session.post('Profiler.stop', (err, result) => {
    if (!err) writeFileSync(path.join(process.env.BENCH_PROFILE, name), JSON.stringify(result.profile));
  });
};
process.on('exit', stop);
// BENCH_PROFILE_STOP_MS: stop and write then (a worker thread ended by the process's exit runs no
// exit handler of its own)
const until = Number(process.env.BENCH_PROFILE_STOP_MS ?? 0);
if (until > 0) setTimeout(stop, until).unref();
