// @vitest-environment node
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  CHUNK_LOAD_TIMEOUT_MS,
  ChunkLoadError,
  classifyLoadFailure,
  lazyPage,
  loadChunk,
  ModuleNotFoundError,
} from './loadChunk';

afterEach(() => {
  vi.useRealTimers();
});

describe('classifyLoadFailure', () => {
  it.each<[string, unknown, ReturnType<typeof classifyLoadFailure>]>([
    [
      'Chrome dynamic import',
      new TypeError('Failed to fetch dynamically imported module: https://x/assets/HomePage-1a2b.js'),
      'script',
    ],
    [
      'Firefox dynamic import',
      new TypeError('error loading dynamically imported module: https://x/a.js'),
      'script',
    ],
    ['Safari dynamic import', new TypeError('Importing a module script failed.'), 'script'],
    [
      'webpack-style chunk',
      Object.assign(new Error('Loading chunk 42 failed.'), { name: 'ChunkLoadError' }),
      'script',
    ],
    ['Vite CSS preload', new Error('Unable to preload CSS for /assets/HomePage-1a2b.css'), 'style'],
    ['webpack-style CSS chunk', new Error('Loading CSS chunk 42 failed.'), 'style'],
    [
      'module lookup',
      Object.assign(new Error("Cannot find module './x'"), { code: 'MODULE_NOT_FOUND' }),
      'module-not-found',
    ],
    ['a ChunkLoadError', new ChunkLoadError('home', 'style', 'x'), 'style'],
    ['a ModuleNotFoundError', new ModuleNotFoundError('home#HomePage'), 'module-not-found'],
    ['some other error', new Error('boom'), null],
    ['a string', 'Failed to fetch dynamically imported module', null],
    ['nothing', undefined, null],
  ])('%s', (_label, error, expected) => {
    expect(classifyLoadFailure(error)).toBe(expected);
  });
});

describe('loadChunk', () => {
  it('resolves with the module', async () => {
    await expect(loadChunk('home', async () => ({ a: 1 }))).resolves.toEqual({ a: 1 });
  });

  it.each([
    [
      'script',
      new TypeError('Failed to fetch dynamically imported module: /assets/a.js'),
      'Loading chunk home failed.',
    ],
    ['style', new Error('Unable to preload CSS for /assets/a.css'), 'Loading CSS chunk home failed.'],
  ] as const)('wraps a %s failure into a ChunkLoadError', async (kind, cause, message) => {
    const error = await loadChunk('home', () => Promise.reject(cause)).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(ChunkLoadError);
    expect(error).toMatchObject({ name: 'ChunkLoadError', kind, chunk: 'home', cause });
    expect((error as Error).message.startsWith(message)).toBe(true);
  });

  it('passes other errors through unchanged', async () => {
    const boom = new Error('boom');
    await expect(loadChunk('home', () => Promise.reject(boom))).rejects.toBe(boom);
  });

  it('fails with a chunk-load error after 120 s', async () => {
    vi.useFakeTimers();
    const pending = loadChunk('home', () => new Promise<never>(() => undefined));
    const outcome = pending.catch((reason: unknown) => reason);
    await vi.advanceTimersByTimeAsync(CHUNK_LOAD_TIMEOUT_MS);
    expect(CHUNK_LOAD_TIMEOUT_MS).toBe(120_000);
    expect(await outcome).toMatchObject({
      name: 'ChunkLoadError',
      message: 'Loading chunk home failed.\n(timeout: home)',
    });
  });
});

describe('lazyPage', () => {
  function HomePage() {
    return null;
  }

  it('gives react-router the named component', async () => {
    await expect(lazyPage('home', async () => ({ HomePage }), 'HomePage')()).resolves.toEqual({
      Component: HomePage,
    });
  });

  it("reports a missing export as 'Cannot find module' (MODULE_NOT_FOUND)", async () => {
    const load = lazyPage('home', async () => ({}) as { HomePage: typeof HomePage }, 'HomePage');
    await expect(load()).rejects.toMatchObject({
      code: 'MODULE_NOT_FOUND',
      message: "Cannot find module 'home#HomePage'",
    });
  });
});
