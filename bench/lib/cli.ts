/** Shared by the benchmarks: command-line options and latency percentiles. */

/** The value after `--name` on the command line, or `fallback`. */
export function arg(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? process.argv[index + 1] : fallback;
}

/** The p-th percentile of an ascending array (nearest rank). */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Rate and latency figures of one measured run: `latencies` in ms (any order), `seconds` of wall time. */
export function latencySummary(latencies: number[], seconds: number) {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    seconds: Number(seconds.toFixed(2)),
    rate: Math.round(sorted.length / seconds),
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1],
  };
}

/** Prints a Markdown table: the metrics down the side, one column per run (`nameOf` heads it). */
export function printMetricTable<R>(
  runs: R[],
  nameOf: (run: R) => string,
  rows: [string, (run: R) => string | number][],
): void {
  const header = ['metric', ...runs.map(nameOf)];
  const body = rows.map(([label, get]) => [label, ...runs.map((run) => String(get(run)))]);
  const widths = header.map((_, i) => Math.max(...[header, ...body].map((row) => (row[i] ?? '').length)));
  const line = (row: string[]) => `| ${row.map((cell, i) => (cell ?? '').padEnd(widths[i])).join(' | ')} |`;
  console.log(line(header));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const row of body) console.log(line(row));
}
