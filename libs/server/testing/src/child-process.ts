import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';

export type TsProcess = {
  child: ChildProcess;
  /** Lines the child printed on stdout so far. */
  lines: string[];
  /** Resolves with the first stdout line matching `pattern`. */
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<string>;
  kill(signal?: NodeJS.Signals): Promise<void>;
  exited: Promise<number | null>;
};

const ROOT = resolve(__dirname, '../../../..');

/**
 * Run a TypeScript file of this repo in a real separate Node process (so it can be SIGKILLed),
 * with the workspace path aliases resolved.
 */
export function spawnTs(file: string, env: Record<string, string | undefined> = {}): TsProcess {
  const child = spawn(process.execPath, ['-r', '@swc-node/register', resolve(ROOT, file)], {
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
  createInterface({ input: child.stderr! }).on('line', (line) => stderr.push(line));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  return {
    child,
    lines,
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
    async kill(signal = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill(signal);
        await exited;
      }
    },
  };
}
