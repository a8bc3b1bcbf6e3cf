/** Spec §9: resize handlers are throttled to one call per 100 ms. */
export const RESIZE_THROTTLE_MS = 100;

export type Throttled<A extends unknown[]> = ((...args: A) => void) & { cancel(): void };

/**
 * Calls `fn` at once, then at most once per `waitMs`; the last call of a burst is not lost
 * (it runs at the end of the window with the latest arguments).
 */
export function throttle<A extends unknown[]>(fn: (...args: A) => void, waitMs: number): Throttled<A> {
  let last = -Infinity;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pending: A | undefined;

  const run = (args: A) => {
    last = Date.now();
    pending = undefined;
    fn(...args);
  };

  const throttled = (...args: A) => {
    const remaining = waitMs - (Date.now() - last);
    if (remaining <= 0 && timer === undefined) {
      run(args);
      return;
    }
    pending = args;
    timer ??= setTimeout(
      () => {
        timer = undefined;
        if (pending) run(pending);
      },
      Math.max(remaining, 0),
    );
  };
  throttled.cancel = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    pending = undefined;
  };
  return throttled;
}
