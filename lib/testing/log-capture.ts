// Vitest setup (vitest.config.mts): the app's log (lib/log.ts) goes to the running test instead of
// the terminal, so expected failures (a full disk, a store that is down) do not fill a passing run.
// What still reaches the terminal: every error line a test did not declare with expectLogged(),
// and, when a test fails, everything it logged, as context for the failure.
import { afterEach, beforeEach } from 'vitest';

interface Line {
  text: string;
  level: string;
  msg: string;
}

// The AWS SDK warns once per process that Node 20 will not get its updates after January 2027: for
// an operator's log (the server still prints it), not for every test process that loads it.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const g = globalThis as unknown as { __siloLogSink?: { write(line: string): void } };
let lines: Line[] | undefined;
let forTest: RegExp[] = [];
const forFile: RegExp[] = [];

g.__siloLogSink = {
  write(text: string) {
    let level = 'error';
    let msg = text;
    try {
      ({ level, msg } = JSON.parse(text) as Line);
    } catch {}
    const line = { text, level, msg: String(msg) };
    if (lines) lines.push(line);
    else if (unexpected(line)) process.stderr.write(text);
  },
};

const unexpected = (l: Line) => (l.level === 'error' || l.level === 'fatal') && ![...forFile, ...forTest].some((p) => p.test(l.msg));

/**
 * Error lines whose message matches one of `patterns` are expected: inside a test, for that test;
 * at a file's top level, for the whole file. They are shown only if the test fails.
 */
export function expectLogged(...patterns: RegExp[]) {
  (lines ? forTest : forFile).push(...patterns);
}

/** What the running test has logged so far, each line's fields (`msg`, and what the line carries). */
export function loggedSoFar(): Record<string, unknown>[] {
  return (lines ?? []).map((l) => {
    try {
      return JSON.parse(l.text) as Record<string, unknown>;
    } catch {
      return { msg: l.msg };
    }
  });
}

beforeEach((ctx) => {
  const mine: Line[] = [];
  lines = mine;
  forTest = [];
  ctx.onTestFailed(() => {
    const rest = mine.filter((l) => !unexpected(l));
    if (rest.length) process.stderr.write(`--- the log of "${ctx.task.name}" ---\n${rest.map((l) => l.text).join('')}`);
  });
});

afterEach(() => {
  for (const l of lines ?? []) if (unexpected(l)) process.stderr.write(l.text);
  lines = undefined;
});
