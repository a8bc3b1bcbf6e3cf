import type { ComponentType } from 'react';

/** Spec §9: a lazily loaded chunk that has not arrived after 120 s counts as failed. */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

export type LoadFailureKind = 'script' | 'style' | 'module-not-found';

/**
 * A lazy route's code could not be loaded (spec §8 "Chunk-load error"; a style chunk gives the
 * CSS chunk load error). The usual cause is a deployment that replaced the files: reloading helps.
 */
export class ChunkLoadError extends Error {
  override readonly name = 'ChunkLoadError';

  constructor(
    readonly chunk: string,
    readonly kind: Exclude<LoadFailureKind, 'module-not-found'>,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(`Loading ${kind === 'style' ? 'CSS chunk' : 'chunk'} ${chunk} failed.\n(${detail})`, options);
  }
}

/** Spec §8: a module lookup failure is 'Cannot find module', code MODULE_NOT_FOUND. */
export class ModuleNotFoundError extends Error {
  override readonly name = 'ModuleNotFoundError';
  readonly code = 'MODULE_NOT_FOUND';

  constructor(readonly module: string) {
    super(`Cannot find module '${module}'`);
  }
}

// What browsers and Vite say when a dynamic import or its preloaded CSS fails.
const STYLE_FAILURE = /Unable to preload CSS|Loading CSS chunk/i;
const SCRIPT_FAILURE =
  /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Loading chunk .* failed/i;

/** Which kind of load failure an error is, or null when it is some other error. */
export function classifyLoadFailure(error: unknown): LoadFailureKind | null {
  if (error instanceof ChunkLoadError) return error.kind;
  if (typeof error !== 'object' || error === null) return null;
  const { message, code, name } = error as { message?: unknown; code?: unknown; name?: unknown };
  if (code === 'MODULE_NOT_FOUND') return 'module-not-found';
  const text = typeof message === 'string' ? message : '';
  if (STYLE_FAILURE.test(text)) return 'style';
  if (name === 'ChunkLoadError' || SCRIPT_FAILURE.test(text)) return 'script';
  return null;
}

/** Imports a chunk, turning a failure or a time-out into a ChunkLoadError. */
export function loadChunk<T>(
  chunk: string,
  importer: () => Promise<T>,
  timeoutMs: number = CHUNK_LOAD_TIMEOUT_MS,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new ChunkLoadError(chunk, 'script', `timeout: ${chunk}`)),
      timeoutMs,
    );
    importer().then(
      (module) => {
        clearTimeout(timer);
        resolve(module);
      },
      (error: unknown) => {
        clearTimeout(timer);
        const kind = classifyLoadFailure(error);
        if (kind === 'script' || kind === 'style') {
          const detail = error instanceof Error ? error.message : String(error);
          reject(new ChunkLoadError(chunk, kind, detail, { cause: error }));
        } else {
          reject(error);
        }
      },
    );
  });
}

/**
 * A react-router `lazy` function for a page: loads the chunk and picks the named component.
 * A missing export is a module lookup failure.
 */
export function lazyPage<M, K extends keyof M & string>(
  chunk: string,
  importer: () => Promise<M>,
  exportName: K,
): () => Promise<{ Component: ComponentType }> {
  return async () => {
    const module = await loadChunk(chunk, importer);
    const Component = module[exportName] as ComponentType | undefined;
    if (typeof Component !== 'function' && (typeof Component !== 'object' || Component === null)) {
      throw new ModuleNotFoundError(`${chunk}#${exportName}`);
    }
    return { Component };
  };
}
