/**
 * Summarises a V8 sampling heap profile (what BENCH_HEAP_SAMPLE writes): bytes sampled per allocating
 * function, and inclusive bytes per package or source folder (each once per stack), so that the sites
 * that allocate the most per message stand out. With BENCH_HEAP_SAMPLE_ALL=1 the profile holds every
 * sampled allocation, short-lived ones included; without it, only what survived a minor GC.
 * Run: `SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register bench/lib/heapprofile-summary.ts
 * FILE.heapprofile [--top 40] [--stacks 10]`.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ownerOf } from './profile-owner';

interface HeapNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: HeapNode[];
}

function frameName(node: HeapNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  return `${functionName || '(anonymous)'}${url ? ` ${url.replace(/^.*node_modules\//, '')}:${lineNumber + 1}` : ''}`;
}

function main(): void {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { top: { type: 'string', default: '40' }, stacks: { type: 'string', default: '10' } },
  });
  const file = positionals[0];
  if (!file) throw new Error('usage: heapprofile-summary.ts FILE.heapprofile [--top n] [--stacks n]');
  const profile = JSON.parse(readFileSync(file, 'utf8')) as { head: HeapNode };

  const selfByFunction = new Map<string, number>();
  const inclusiveByOwner = new Map<string, number>();
  const stacks: Array<{ bytes: number; stack: string[] }> = [];
  let total = 0;
  const walk = (node: HeapNode, path: HeapNode[]): void => {
    const here = [...path, node];
    if (node.selfSize > 0) {
      total += node.selfSize;
      const key = frameName(node);
      selfByFunction.set(key, (selfByFunction.get(key) ?? 0) + node.selfSize);
      const owners = new Set(here.map((n) => ownerOf(n.callFrame.url, n.callFrame.functionName)));
      for (const owner of owners)
        inclusiveByOwner.set(owner, (inclusiveByOwner.get(owner) ?? 0) + node.selfSize);
      stacks.push({ bytes: node.selfSize, stack: here.slice(-8).map(frameName).reverse() });
    }
    for (const child of node.children) walk(child, here);
  };
  walk(profile.head, []);

  const mib = (n: number) => `${(n / 1048576).toFixed(1).padStart(7)} MiB`;
  const pct = (n: number) => `${((100 * n) / Math.max(1, total)).toFixed(1).padStart(5)} %`;
  process.stdout.write(`${file}: ${mib(total).trim()} sampled\n\nbytes by allocating function\n`);
  const top = Number(values.top);
  for (const [key, bytes] of [...selfByFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    process.stdout.write(`${pct(bytes)} ${mib(bytes)}  ${key}\n`);
  }
  process.stdout.write('\ninclusive bytes by package or folder\n');
  for (const [owner, bytes] of [...inclusiveByOwner].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    process.stdout.write(`${pct(bytes)} ${mib(bytes)}  ${owner}\n`);
  }
  process.stdout.write('\nheaviest allocation stacks (innermost first)\n');
  for (const { bytes, stack } of stacks.sort((a, b) => b.bytes - a.bytes).slice(0, Number(values.stacks))) {
    process.stdout.write(`${pct(bytes)} ${mib(bytes)}\n${stack.map((f) => `    ${f}`).join('\n')}\n`);
  }
}

main();
