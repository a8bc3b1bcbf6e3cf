import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';

export type TsProcess = {
  child: ChildProcess;
  /** Lines the child printed on stdout so far. */
  lines: string[];
  /** The last lines the child printed on stderr (for failure messages). */
  stderr: string[];
  /** Resolves with the first stdout line matching `pattern`. */
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /**
   * Sends `signal` (default SIGKILL) and waits for the exit; a process still running `graceMs` after
   * a gentler signal is killed.
   */
  kill(signal?: NodeJS.Signals, graceMs?: number): Promise<void>;
  exited: Promise<number | null>;
};

const ROOT = resolve(__dirname, '../../../..');
const STDERR_LINES_KEPT = 50;

/**
 * Run a TypeScript file of this repo in a real separate Node process (so it can be SIGKILLed),
 * with the workspace path aliases resolved. `nodeArgs` go before the file (`--max-semi-space-size=32`).
 */
export function spawnTs(
  file: string,
  env: Record<string, string | undefined> = {},
  nodeArgs: readonly string[] = [],
): TsProcess {
  const child = spawn(process.execPath, [...nodeArgs, '-r', '@swc-node/register', resolve(ROOT, file)], {
    cwd: ROOT,
    env: { ...process.env, SWC_NODE_PROJECT: resolve(ROOT, 'tsconfig.base.json'), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const waiters: { pattern: RegExp; resolve: (line: string) => void }[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => {
    lines.push(line);
    for (const waiter of [...waiters]) {
      if (waiter.pattern.test(line)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    }
  });
  const stderr: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (line) => {
    stderr.push(line);
    if (stderr.length > STDERR_LINES_KEPT) stderr.shift();
  });
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  return {
    child,
    lines,
    stderr,
    exited,
    waitForLine(pattern, timeoutMs = 30_000) {
      const seen = lines.find((line) => pattern.test(line));
      if (seen) return Promise.resolve(seen);
      return new Promise((resolveLine, reject) => {
        const timer = setTimeout(
          () =>
            reject(
              new Error(
                `no line matching ${pattern} within ${timeoutMs} ms; stderr:\n${stderr.slice(-20).join('\n')}`,
              ),
            ),
          timeoutMs,
        );
        waiters.push({
          pattern,
          resolve: (line) => {
            clearTimeout(timer);
            resolveLine(line);
          },
        });
      });
    },
    async kill(signal = 'SIGKILL', graceMs = 15_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      if (signal === 'SIGKILL') {
        await exited;
        return;
      }
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * Resolves once `url` answers 200 (a service's /health: every dependency up); rejects early, with the
 * end of its stderr, when the process exits first.
 */
export async function waitForHealthy(process: TsProcess, url: string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exitCode: number | null | undefined;
  void process.exited.then((code) => (exitCode = code));
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (exitCode !== undefined)
      throw new Error(
        `exited (${exitCode}) before ${url} was healthy; stderr:\n${process.stderr.join('\n')}`,
      );
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return;
      last = `${response.status} ${await response.text()}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((resolveWait) => setTimeout(resolveWait, 200));
  }
  throw new Error(
    `${url} not healthy within ${timeoutMs} ms (${last}); stderr:\n${process.stderr.join('\n')}`,
  );
}

/** A TCP port the system finds free on 127.0.0.1 right now, for a child process to listen on. */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolvePort(port));
    });
  });
}
