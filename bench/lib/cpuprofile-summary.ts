/**
 * Summarises a V8 CPU profile (`node --cpu-prof`, as BENCH_NODE_ARGS makes the gateway benchmarks write):
 * the functions with the most self samples, and inclusive shares per package (node_modules/<pkg>) or
 * source folder, optionally for a time window only (seconds from the profile's start), e.g. the burst.
 * Run: `SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register bench/lib/cpuprofile-summary.ts
 * FILE.cpuprofile [--from 60] [--to 90] [--top 40] [--busy-ms 20]`.
 *
 * `--busy-ms N` counts only the samples of busy stretches: runs of samples with no `(idle)` one between
 * them lasting at least N ms. Those stretches are when the event loop answered nothing, so what fills them
 * is what delays the calls waiting behind them (the latency tail), rather than what costs the most CPU.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ownerOf } from './profile-owner';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

function main(): void {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      from: { type: 'string' },
      to: { type: 'string' },
      top: { type: 'string', default: '40' },
      'busy-ms': { type: 'string' },
    },
  });
  const file = positionals[0];
  if (!file) throw new Error('usage: cpuprofile-summary.ts FILE.cpuprofile [--from s] [--to s] [--top n]');
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

  const from = values.from === undefined ? -Infinity : Number(values.from) * 1e6;
  const to = values.to === undefined ? Infinity : Number(values.to) * 1e6;
  const self = new Map<number, number>();
  const idle = new Set(profile.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id));
  const busyMs = values['busy-ms'] === undefined ? 0 : Number(values['busy-ms']);
  // Busy stretches: [first sample index, end index (exclusive), duration µs].
  const stretches: [number, number, number][] = [];
  let t = 0;
  let start = -1;
  let startT = 0;
  const times: number[] = new Array(profile.samples.length);
  for (let i = 0; i <= profile.samples.length; i++) {
    if (i < profile.samples.length) {
      t += profile.timeDeltas[i] ?? 0;
      times[i] = t;
    }
    const isIdle = i === profile.samples.length || idle.has(profile.samples[i] as number);
    if (!isIdle && start < 0) {
      start = i;
      startT = t;
    } else if (isIdle && start >= 0) {
      stretches.push([start, i, (i < profile.samples.length ? t : times[i - 1]) - startT]);
      start = -1;
    }
  }
  const counted = new Uint8Array(profile.samples.length);
  if (busyMs > 0) {
    for (const [first, end, duration] of stretches)
      if (duration >= busyMs * 1000) counted.fill(1, first, end);
  } else counted.fill(1);
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    if (times[i] < from || times[i] > to || !counted[i]) continue;
    const id = profile.samples[i] as number;
    self.set(id, (self.get(id) ?? 0) + 1);
    total++;
  }
  if (busyMs > 0) {
    const long = stretches.filter(
      ([first, , d]) => d >= busyMs * 1000 && times[first] >= from && times[first] <= to,
    );
    const ms = long.map(([, , d]) => d / 1000).sort((a, b) => a - b);
    process.stdout.write(
      `busy stretches of ${busyMs} ms or more in the window: ${ms.length}, ` +
        `${ms.reduce((a, b) => a + b, 0).toFixed(0)} ms in all, median ${(ms[ms.length >> 1] ?? 0).toFixed(0)} ms, ` +
        `longest ${(ms[ms.length - 1] ?? 0).toFixed(0)} ms\n`,
    );
  }
  const seconds = (profile.endTime - profile.startTime) / 1e6;
  process.stdout.write(`${file}: ${seconds.toFixed(1)} s, ${total} samples in the window\n`);

  const selfByFunction = new Map<string, number>();
  const inclusiveByOwner = new Map<string, number>();
  for (const [id, count] of self) {
    const node = byId.get(id) as ProfileNode;
    const { functionName, url, lineNumber } = node.callFrame;
    const key = `${functionName || '(anonymous)'} ${url ? `${url.replace(/^.*node_modules\//, '')}:${lineNumber + 1}` : ''}`;
    selfByFunction.set(key, (selfByFunction.get(key) ?? 0) + count);
    // Each owner once per stack.
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const frame = (byId.get(cur) as ProfileNode).callFrame;
      seen.add(ownerOf(frame.url, frame.functionName));
    }
    for (const owner of seen) inclusiveByOwner.set(owner, (inclusiveByOwner.get(owner) ?? 0) + count);
  }
  const pct = (n: number) => `${((100 * n) / Math.max(1, total)).toFixed(1).padStart(5)} %`;
  const top = Number(values.top);
  process.stdout.write('\nself samples by function\n');
  for (const [key, count] of [...selfByFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    process.stdout.write(`${pct(count)}  ${key}\n`);
  }
  process.stdout.write('\ninclusive samples by package or folder\n');
  for (const [owner, count] of [...inclusiveByOwner].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    process.stdout.write(`${pct(count)}  ${owner}\n`);
  }
}

main();
