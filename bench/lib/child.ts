/** Shared by the benchmarks that run a server under test in a child process (same TypeScript loader). */
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');
const CLK_TCK = 100; // getconf CLK_TCK on Linux

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
 * Starts `script` (path from the repository root) with a raised fd limit; resolves once its stdout matches
 * `ready` (by default a line containing `"ready":true`), failing after `startSeconds` (60). Its stdout stays
 * readable (JSON lines), its stderr is inherited. `nodeArgs` (the options the service is started with, as
 * the app's start scripts give them) and then BENCH_NODE_ARGS (e.g. "--cpu-prof
 * --cpu-prof-dir=/tmp/prof") is passed to its node; BENCH_CHILD_STDOUT (a file) gets a copy of its stdout. The child is `bash -c '...; exec node'`, so its pid is
 * the node process.
 */
export async function startChild(
  script: string,
  env: Record<string, string>,
  options: { ready?: RegExp; startSeconds?: number; nodeArgs?: readonly string[] } = {},
): Promise<ChildProcess> {
  const ready = options.ready ?? /"ready":true/;
  const startSeconds = options.startSeconds ?? 60;
  const nodeArgs = [...(options.nodeArgs ?? []), process.env['BENCH_NODE_ARGS'] ?? ''].join(' ');
  const command = `ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"; exec node ${nodeArgs} -r @swc-node/register ${script}`;
  const child = spawn('bash', ['-c', command], {
    cwd: ROOT,
    env: { ...process.env, SWC_NODE_PROJECT: 'tsconfig.base.json', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // BENCH_CHILD_STDOUT=file: a copy of what the child prints, for V8 traces (--trace-gc-nvp) that go to stdout.
  const copy = process.env['BENCH_CHILD_STDOUT'];
  if (copy) child.stdout?.on('data', (chunk: Buffer) => appendFileSync(copy, chunk));
  await new Promise<void>((done, fail) => {
    let buffer = '';
    const timer = setTimeout(
      () => fail(new Error(`${script} did not start in ${startSeconds} s`)),
      startSeconds * 1000,
    );
    child.once('exit', (code) => fail(new Error(`${script} exited with ${code} before it was ready`)));
    const onData = (chunk: Buffer) => {
      buffer = (buffer + chunk.toString('utf8')).slice(-100_000);
      if (!ready.test(buffer)) return;
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      done();
    };
    child.stdout?.on('data', onData);
  });
  return child;
}

/**
 * Stops the child (SIGTERM, SIGKILL after 15 s); resolves with the `stats` object it printed on the way out,
 * if any. A child that is missing or already gone is left alone.
 */
export async function stopChild(
  child: ChildProcess | undefined,
): Promise<Record<string, number> | undefined> {
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return undefined;
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

/** RSS (bytes) and CPU time (s, user + system) of a process, from /proc. */
export function procUsage(pid: number): { rss: number; cpu: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const rssKiB = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return { rss: rssKiB * 1024, cpu: procCpu(readFileSync(`/proc/${pid}/stat`, 'utf8')) };
}

/** CPU seconds (user + system) of each of `pids` that still runs (those gone are left out). */
export function cpuSecondsOf(pids: Iterable<number>): Map<number, number> {
  const seconds = new Map<number, number>();
  for (const pid of pids) {
    try {
      seconds.set(pid, procCpu(readFileSync(`/proc/${pid}/stat`, 'utf8')));
    } catch {
      // exited
    }
  }
  return seconds;
}

/** CPU seconds (user + system) from the text of a `/proc/<pid>/stat`. */
function procCpu(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state); utime and stime are fields 14 and 15.
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
}

/** CPU seconds so far: per command name asked for, and the idle and total seconds of all `cores`. */
export type CpuReading = { byCommand: Record<string, number>; idle: number; total: number; cores: number };

/**
 * Where the machine's CPU went so far: seconds used by every process whose command name is one of
 * `commands` (e.g. `postgres`: the server and all its backends; a process that exits takes its seconds
 * with it), and the idle and total seconds of all cores (`/proc/stat`). Two readings give shares over
 * the time between them (cpuShares).
 */
export function readCpu(commands: string[]): CpuReading {
  const byCommand: Record<string, number> = Object.fromEntries(commands.map((c) => [c, 0]));
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // exited meanwhile
    }
    const command = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    if (Object.hasOwn(byCommand, command)) byCommand[command] += procCpu(stat);
  }
  const lines = readFileSync('/proc/stat', 'utf8').split('\n');
  const ticks = lines[0].trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal (guest time is counted in user already)
  const total = ticks.slice(0, 8).reduce((a, b) => a + b, 0) / CLK_TCK;
  const idle = (ticks[3] + ticks[4]) / CLK_TCK;
  const cores = lines.filter((line) => /^cpu\d+ /.test(line)).length;
  return { byCommand, idle, total, cores };
}

/**
 * Between two readings: each command's CPU in % of one core, and the machine's idle share in % of all
 * cores. The time between them is the readings' own (all cores' seconds over the cores), so a window
 * is exactly the span between the two readings.
 */
export function cpuShares(
  from: CpuReading,
  to: CpuReading,
): { byCommand: Record<string, number>; idlePercent: number } {
  const total = to.total - from.total;
  const seconds = total / to.cores;
  const byCommand = Object.fromEntries(
    Object.keys(to.byCommand).map((c) => [
      c,
      seconds > 0 ? Math.round(((to.byCommand[c] - (from.byCommand[c] ?? 0)) / seconds) * 100) : NaN,
    ]),
  );
  return { byCommand, idlePercent: total > 0 ? Math.round(((to.idle - from.idle) / total) * 100) : NaN };
}
