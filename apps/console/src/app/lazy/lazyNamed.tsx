import {
  lazy,
  Suspense,
  useState,
  type ComponentType,
  type LazyExoticComponent,
  type ReactNode,
} from 'react';
import { loadChunk } from '../router/loadChunk';

/**
 * A component loaded when it first renders, from a named export (React.lazy wants a default one). For
 * what the first screen does not need: dialogs of the header, whose forms would weigh on the sign-in.
 */
export function lazyNamed<M, K extends keyof M & string>(
  chunk: string,
  importer: () => Promise<M>,
  exportName: K,
): LazyExoticComponent<ComponentType<PropsOf<M[K]>>> {
  return lazy(async () => ({
    default: (await loadChunk(chunk, importer))[exportName] as ComponentType<PropsOf<M[K]>>,
  }));
}

type PropsOf<C> = C extends ComponentType<infer P> ? P : never;

/**
 * Renders its children from the first time `open` is true on, and keeps them (a dialog closes with its
 * animation); until then the lazy code they need is not fetched.
 */
export function MountWhenOpened({ open, children }: { open: boolean; children: ReactNode }) {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened || open ? <Suspense fallback={null}>{children}</Suspense> : null;
}
