// Imported first by serve.mjs, before anything can start libuv's thread pool (which reads this
// once): every file operation and fsync of a request runs there, and four threads (Node's
// default) queue the small writes of 32 concurrent requests behind each other's fsyncs.
// An operator's own UV_THREADPOOL_SIZE wins.
process.env.UV_THREADPOOL_SIZE ??= '16';
