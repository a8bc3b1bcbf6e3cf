import { gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** One entry of Vite's build manifest (`.vite/manifest.json`), the fields the budget reads. */
export type ManifestChunk = {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
};
export type Manifest = Record<string, ManifestChunk>;

/**
 * The files a browser fetches to show the given starting points (manifest keys: the html entry and the
 * lazy route modules it opens first): each start's file, every chunk it imports statically, transitively,
 * and their CSS. Dynamic imports are left out: they load when a page asks for them. A start missing from
 * the manifest is an error, so a renamed page cannot make the check measure nothing.
 */
export function initialFiles(manifest: Manifest, starts: readonly string[]): string[] {
  const files = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string, from: string) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`bundle budget: "${key}" (${from}) is not in the build manifest`);
    seen.add(key);
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const imported of chunk.imports ?? []) visit(imported, `imported by ${key}`);
  };
  for (const start of starts) visit(start, 'a starting point');
  return [...files];
}

/**
 * Chunks that import each other in a circle (each cycle once, as manifest keys). Such a circle can run a
 * module before what it imports; the build refuses one.
 */
export function chunkCycles(manifest: Manifest): string[][] {
  const done = new Set<string>();
  const onPath: string[] = [];
  const cycles: string[][] = [];
  const visit = (key: string) => {
    const at = onPath.indexOf(key);
    if (at >= 0) {
      cycles.push([...onPath.slice(at), key]);
      return;
    }
    if (done.has(key) || !manifest[key]) return;
    onPath.push(key);
    for (const imported of manifest[key].imports ?? []) visit(imported);
    onPath.pop();
    done.add(key);
  };
  for (const key of Object.keys(manifest)) visit(key);
  return cycles;
}

export type BudgetFile = { file: string; gzipBytes: number };
export type BudgetReport = {
  files: BudgetFile[];
  totalGzipBytes: number;
  budgetBytes: number;
  /** Modules of the initial files that belong only on the pages that use them (charts, maps, editor). */
  forbidden: { file: string; module: string }[];
};

export type BudgetInput = {
  manifest: Manifest;
  starts: readonly string[];
  budgetBytes: number;
  /** A file's content as served (its gzip size is what counts). */
  contentOf: (file: string) => string | Uint8Array;
  /** The source modules bundled into a file (none for CSS). */
  modulesOf: (file: string) => readonly string[];
  forbiddenModules: readonly RegExp[];
};

export const gzipSize = (content: string | Uint8Array): number => gzipSync(content).length;

/** Measures the initial files against the budget. */
export function measureInitialLoad(input: BudgetInput): BudgetReport {
  const files = initialFiles(input.manifest, input.starts)
    .map((file) => ({ file, gzipBytes: gzipSize(input.contentOf(file)) }))
    .sort((a, b) => b.gzipBytes - a.gzipBytes);
  const forbidden = files.flatMap(({ file }) =>
    input
      .modulesOf(file)
      .filter((module) => input.forbiddenModules.some((pattern) => pattern.test(module)))
      .map((module) => ({ file, module })),
  );
  return {
    files,
    totalGzipBytes: files.reduce((sum, f) => sum + f.gzipBytes, 0),
    budgetBytes: input.budgetBytes,
    forbidden,
  };
}

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

/** What the build prints, and the reasons it fails (empty when within budget). */
export function describeReport(report: BudgetReport, label: string): { lines: string[]; failures: string[] } {
  const lines = [
    `${label}: ${kB(report.totalGzipBytes)} gzipped in ${report.files.length} files (budget ${kB(report.budgetBytes)})`,
    ...report.files.map((f) => `  ${kB(f.gzipBytes).padStart(10)}  ${f.file}`),
  ];
  const failures: string[] = [];
  if (report.totalGzipBytes > report.budgetBytes) {
    failures.push(
      `${label} is ${kB(report.totalGzipBytes)} gzipped, over the budget of ${kB(report.budgetBytes)}`,
    );
  }
  const packages = [...new Set(report.forbidden.map((f) => f.module))];
  if (packages.length > 0) {
    failures.push(
      `${label} includes modules that belong only on the pages that use them: ${packages.slice(0, 5).join(', ')}${packages.length > 5 ? ` and ${packages.length - 5} more` : ''}`,
    );
  }
  return { lines, failures };
}

export type BundleBudgetOptions = {
  /** What is measured, for the printed line. */
  label: string;
  /** Manifest keys of the html entry and the routes shown first. */
  starts: readonly string[];
  budgetBytes: number;
  forbiddenModules: readonly RegExp[];
};

const MANIFEST = '.vite/manifest.json';

/**
 * A build plugin: after the bundle is written, prints the gzipped size of what the starting points load
 * and fails the build when it is over the budget, pulls in a forbidden module, or when chunks import each
 * other in a circle. Needs `build.manifest`.
 */
export function bundleBudget(options: BundleBudgetOptions): Plugin {
  return {
    name: 'voltdepot:bundle-budget',
    apply: 'build',
    writeBundle(_output, bundle) {
      const manifestAsset = bundle[MANIFEST];
      if (!manifestAsset || manifestAsset.type !== 'asset') {
        this.error(`bundle budget: no ${MANIFEST} in the bundle (set build.manifest to true)`);
      }
      const manifest = JSON.parse(String(manifestAsset.source)) as Manifest;
      const output = (file: string) => {
        const item = bundle[file];
        if (!item) this.error(`bundle budget: ${file} is in the manifest but not in the bundle`);
        return item;
      };
      const report = measureInitialLoad({
        manifest,
        starts: options.starts,
        budgetBytes: options.budgetBytes,
        forbiddenModules: options.forbiddenModules,
        contentOf: (file) => {
          const item = output(file);
          return item.type === 'chunk' ? item.code : item.source;
        },
        modulesOf: (file) => {
          const item = output(file);
          return item.type === 'chunk' ? item.moduleIds : [];
        },
      });
      const { lines, failures } = describeReport(report, options.label);
      for (const cycle of chunkCycles(manifest))
        failures.push(`chunks import each other: ${cycle.join(' -> ')}`);
      // Printed whatever the log level: the number is the point of the check.
      process.stdout.write(`\n${lines.join('\n')}\n`);
      if (failures.length > 0) this.error(failures.join('; '));
    },
  };
}
