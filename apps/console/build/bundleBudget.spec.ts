// @vitest-environment node
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  chunkCycles,
  describeReport,
  gzipSize,
  initialFiles,
  measureInitialLoad,
  type BudgetInput,
  type Manifest,
} from './bundleBudget';
import { INITIAL_LOAD } from './initialLoadBudget';

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The shape Vite writes: the entry, lazy routes that import shared chunks (and the entry back). */
const manifest: Manifest = {
  'index.html': {
    file: 'assets/main.js',
    isEntry: true,
    imports: ['_shared.js'],
    dynamicImports: ['src/Login.tsx', 'src/Home.tsx', 'src/Charts.tsx'],
    css: ['assets/main.css'],
  },
  '_shared.js': { file: 'assets/shared.js', imports: ['_react.js'] },
  '_react.js': { file: 'assets/react.js' },
  '_form.js': { file: 'assets/form.js', imports: ['_shared.js'] },
  '_echarts.js': { file: 'assets/echarts.js' },
  'src/Login.tsx': {
    file: 'assets/Login.js',
    isDynamicEntry: true,
    imports: ['index.html', '_form.js'],
    css: ['assets/Login.css'],
  },
  'src/Home.tsx': { file: 'assets/Home.js', isDynamicEntry: true, imports: ['index.html', '_shared.js'] },
  'src/Charts.tsx': { file: 'assets/Charts.js', isDynamicEntry: true, imports: ['_echarts.js'] },
};

const STARTS = ['index.html', 'src/Login.tsx', 'src/Home.tsx'];

describe('initialFiles', () => {
  it('takes each start, its static imports transitively and their CSS, but no dynamic import', () => {
    expect(initialFiles(manifest, STARTS).sort()).toEqual(
      [
        'assets/Home.js',
        'assets/Login.css',
        'assets/Login.js',
        'assets/form.js',
        'assets/main.css',
        'assets/main.js',
        'assets/react.js',
        'assets/shared.js',
      ].sort(),
    );
  });

  it('refuses a start the manifest does not have (a renamed page must not measure nothing)', () => {
    expect(() => initialFiles(manifest, ['index.html', 'src/Renamed.tsx'])).toThrow(/src\/Renamed\.tsx/);
  });

  it('refuses an import the manifest does not have', () => {
    const broken: Manifest = { 'index.html': { file: 'assets/main.js', imports: ['_gone.js'] } };
    expect(() => initialFiles(broken, ['index.html'])).toThrow(/_gone\.js/);
  });
});

/** Incompressible content of about `bytes` gzipped bytes (a repeating text would shrink to nothing). */
function noise(bytes: number, seed: number): string {
  let x = seed;
  let text = '';
  while (text.length < bytes) {
    // xorshift32: cheap pseudo-random characters.
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    text += String.fromCharCode(33 + ((x >>> 0) % 90));
  }
  return text;
}

function input(overrides: Partial<BudgetInput> = {}): BudgetInput {
  const contents: Record<string, string> = {};
  Object.values(manifest).forEach((chunk, i) => {
    contents[chunk.file] = noise(chunk.file === 'assets/echarts.js' ? 400_000 : 20_000, i + 1);
    for (const css of chunk.css ?? []) contents[css] = noise(2_000, i + 100);
  });
  return {
    manifest,
    starts: STARTS,
    budgetBytes: 500_000,
    contentOf: (file) => contents[file]!,
    modulesOf: (file) =>
      file === 'assets/echarts.js'
        ? ['/repo/node_modules/echarts/lib/echarts.js']
        : [`/repo/apps/console/${file}.tsx`],
    forbiddenModules: INITIAL_LOAD.forbiddenModules,
    ...overrides,
  };
}

describe('measureInitialLoad', () => {
  it('sums the gzipped size of the initial files only, largest first', () => {
    const report = measureInitialLoad(input());
    expect(report.files.map((f) => f.file)).not.toContain('assets/echarts.js');
    expect(report.files).toHaveLength(8);
    const expected = initialFiles(manifest, STARTS).reduce(
      (sum, file) => sum + gzipSize(input().contentOf(file)),
      0,
    );
    expect(report.totalGzipBytes).toBe(expected);
    // 6 chunks of 20,000 random characters of 90 (about 16 kB gzipped each) and 2 stylesheets.
    expect(report.totalGzipBytes).toBeGreaterThan(90_000);
    expect(report.files[0]!.gzipBytes).toBeGreaterThanOrEqual(report.files.at(-1)!.gzipBytes);
    expect(describeReport(report, 'initial').failures).toEqual([]);
  });

  it('fails above the budget, and says by how much', () => {
    const report = measureInitialLoad(input({ budgetBytes: 50_000 }));
    const { lines, failures } = describeReport(report, 'initial');
    expect(lines[0]).toMatch(/^initial: \d+\.\d kB gzipped in 8 files \(budget 50\.0 kB\)$/);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatch(/over the budget of 50\.0 kB/);
  });

  it('fails when a chart, map or editor module is in the initial set, whatever the size', () => {
    const withCharts: Manifest = {
      ...manifest,
      'src/Home.tsx': { ...manifest['src/Home.tsx']!, imports: ['index.html', '_echarts.js'] },
    };
    const report = measureInitialLoad(input({ manifest: withCharts, budgetBytes: 10_000_000 }));
    expect(report.forbidden).toEqual([
      { file: 'assets/echarts.js', module: '/repo/node_modules/echarts/lib/echarts.js' },
    ]);
    expect(describeReport(report, 'initial').failures[0]).toMatch(/node_modules\/echarts/);
  });
});

describe('chunkCycles', () => {
  it('finds none where lazy routes import the entry and shared chunks', () => {
    expect(chunkCycles(manifest)).toEqual([]);
  });

  it('finds chunks that import each other in a circle', () => {
    const circle: Manifest = {
      ...manifest,
      '_react.js': { file: 'assets/react.js', imports: ['_form.js'] },
    };
    expect(chunkCycles(circle)).toEqual([['_shared.js', '_react.js', '_form.js', '_shared.js']]);
  });
});

describe('the console budget', () => {
  it('starts from pages that exist', () => {
    for (const start of INITIAL_LOAD.starts) expect(existsSync(resolve(projectRoot, start))).toBe(true);
  });

  it('is 500 kB and forbids the chart, map and editor libraries', () => {
    expect(INITIAL_LOAD.budgetBytes).toBe(500_000);
    const forbidden = (path: string) => INITIAL_LOAD.forbiddenModules.some((p) => p.test(path));
    for (const path of [
      '/w/node_modules/echarts/lib/echarts.js',
      '/w/node_modules/zrender/lib/zrender.js',
      '/w/node_modules/echarts-for-react/lib/index.js',
      '/w/node_modules/leaflet/dist/leaflet-src.js',
      '/w/node_modules/react-leaflet/lib/index.js',
      '/w/node_modules/@tiptap/core/dist/index.js',
      '/w/node_modules/prosemirror-model/dist/index.js',
    ]) {
      expect(forbidden(path)).toBe(true);
    }
    expect(forbidden('/w/node_modules/antd/es/button/index.js')).toBe(false);
    expect(forbidden('/w/apps/console/src/features/billing/components/OrderCharts.tsx')).toBe(false);
  });
});
