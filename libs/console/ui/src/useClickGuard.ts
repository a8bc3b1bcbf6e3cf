import { useCallback, useEffect, useRef, useState } from 'react';

/** Spec §9: a button is disabled for 500 ms after a click. */
export const CLICK_GUARD_MS = 500;

/**
 * Wraps a click handler so a double click runs it once: after a call, further calls are ignored for
 * `guardMs` and, when the handler returns a promise, until it settles. `busy` is true meanwhile
 * (render the button disabled with it). The guard is a ref, so two clicks in one tick are caught too.
 */
export function useClickGuard<A extends unknown[]>(
  handler: ((...args: A) => unknown) | undefined,
  guardMs: number = CLICK_GUARD_MS,
): { onClick: (...args: A) => void; busy: boolean } {
  const locked = useRef(false);
  const mounted = useRef(true);
  const [busy, setBusy] = useState(false);
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const onClick = useCallback(
    (...args: A) => {
      if (locked.current) return;
      locked.current = true;
      setBusy(true);
      const delay = new Promise<void>((resolve) => setTimeout(resolve, guardMs));
      let result: unknown;
      try {
        result = latest.current?.(...args);
      } catch (error) {
        void delay.then(release);
        throw error;
      }
      void Promise.all([delay, Promise.resolve(result).catch(() => undefined)]).then(release);
      function release() {
        locked.current = false;
        if (mounted.current) setBusy(false);
      }
    },
    [guardMs],
  );
  return { onClick, busy };
}
