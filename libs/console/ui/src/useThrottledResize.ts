import { useEffect, useRef, useState } from 'react';
import { RESIZE_THROTTLE_MS, throttle } from './throttle';

/** Runs `onResize` on window resize, at most once per 100 ms (spec §9). The latest callback is used. */
export function useThrottledResize(onResize: () => void, waitMs: number = RESIZE_THROTTLE_MS): void {
  const callback = useRef(onResize);
  useEffect(() => {
    callback.current = onResize;
  });
  useEffect(() => {
    const handler = throttle(() => callback.current(), waitMs);
    window.addEventListener('resize', handler);
    return () => {
      window.removeEventListener('resize', handler);
      handler.cancel();
    };
  }, [waitMs]);
}

export type WindowSize = { width: number; height: number };

const readSize = (): WindowSize => ({ width: window.innerWidth, height: window.innerHeight });

/** The window size, updated by a throttled resize handler. */
export function useWindowSize(waitMs: number = RESIZE_THROTTLE_MS): WindowSize {
  const [size, setSize] = useState(readSize);
  useThrottledResize(() => setSize(readSize()), waitMs);
  return size;
}
