/** Shared by the benchmarks that run a server under test in a child process (same TypeScript loader). */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');

/** A free TCP port below 32768 (outside the ephemeral range the client sockets draw from). */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const free = await new Promise<boolean>((done) => {
      const probe = createServer();
      probe.once('error', () => done(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => done(true)));
    });
    if (free) return port;
  }
  throw new Error('no free port below 32768');
}

/**
 * Starts `script` (path from the repository root) with a raised fd limit; resolves once it prints a
 * line containing `"ready":true`. Its stdout stays readable (JSON lines), its stderr is inherited.
 * BENCH_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") is passed to its node.
 */
export async function startChild(script: string, env: Record<string, string>): Promise<ChildProcess> {
  const nodeArgs = process.env['BENCH_NODE_ARGS'] ?? '';
  const command = `ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"; exec node ${nodeArgs} -r @swc-node/register ${script}`;
  const child = spawn('bash', ['-c', command], {
    cwd: ROOT,
    env: { ...process.env, SWC_NODE_PROJECT: 'tsconfig.base.json', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((done, fail) => {
    let buffer = '';
    const timer = setTimeout(() => fail(new Error(`${script} did not start in 60 s`)), 60_000);
    child.once('exit', (code) => fail(new Error(`${script} exited with ${code} before it was ready`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      if (buffer.includes('"ready":true')) {
        clearTimeout(timer);
        done();
      }
    });
  });
  return child;
}

/** Stops the child (SIGTERM, SIGKILL after 15 s); resolves with the `stats` object it printed on the way out. */
export async function stopChild(child: ChildProcess): Promise<Record<string, number> | undefined> {
  if (child.exitCode !== null || child.signalCode !== null) return undefined;
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
  const line = output.split('\n').find((l) => l.startsWith('{"stats"'));
  return line ? (JSON.parse(line) as { stats: Record<string, number> }).stats : undefined;
}
