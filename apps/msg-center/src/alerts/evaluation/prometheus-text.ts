import type { MetricSelector } from './alert-target';

/** One sample of the Prometheus text exposition format. */
export type Sample = { name: string; labels: Record<string, string>; value: number };

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+-?\d+)?\s*$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)\s*=\s*"((?:[^"\\]|\\.)*)"/g;

function unescapeLabel(value: string): string {
  return value.replace(/\\(.)/g, (_m, c: string) => (c === 'n' ? '\n' : c));
}

function parseValue(text: string): number {
  if (text === '+Inf') return Infinity;
  if (text === '-Inf') return -Infinity;
  return Number(text);
}

/** The samples of a text exposition (comments and malformed lines are skipped). */
export function parsePrometheusText(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const m = LINE.exec(line);
    if (!m) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(LABEL)) labels[l[1]] = unescapeLabel(l[2]);
    samples.push({ name: m[1], labels, value: parseValue(m[3]) });
  }
  return samples;
}

/** Samples of `selector.name` whose labels include every matcher. */
export function matching(samples: Sample[], selector: MetricSelector): Sample[] {
  return samples.filter(
    (s) =>
      s.name === selector.name &&
      Object.entries(selector.labels).every(([name, value]) => s.labels[name] === value),
  );
}

/** The sum of the matching samples, or undefined when none matches. */
export function sumOf(samples: Sample[], selector: MetricSelector): number | undefined {
  const found = matching(samples, selector);
  if (found.length === 0) return undefined;
  return found.reduce((sum, s) => sum + s.value, 0);
}

/** Seconds a node_exporter's CPUs spent busy (every mode but idle and iowait) and in total. */
export function nodeCpuSeconds(samples: Sample[]): { busy: number; total: number } | undefined {
  const cpu = samples.filter((s) => s.name === 'node_cpu_seconds_total');
  if (cpu.length === 0) return undefined;
  let busy = 0;
  let total = 0;
  for (const s of cpu) {
    total += s.value;
    if (s.labels['mode'] !== 'idle' && s.labels['mode'] !== 'iowait') busy += s.value;
  }
  return { busy, total };
}

/** The sum of a metric exported with or without a namespace prefix (`process_cpu_seconds_total`, `voltdepot_process_cpu_seconds_total`). */
export function sumOfAnyPrefix(samples: Sample[], name: string): number | undefined {
  const found = samples.filter((s) => s.name === name || s.name.endsWith(`_${name}`));
  if (found.length === 0) return undefined;
  const exact = found.filter((s) => s.name === name);
  return (exact.length > 0 ? exact : found).reduce((sum, s) => sum + s.value, 0);
}
