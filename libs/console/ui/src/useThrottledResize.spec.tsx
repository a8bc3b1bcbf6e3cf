import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useThrottledResize, useWindowSize } from './useThrottledResize';

function Counter({ onResize }: { onResize: () => void }) {
  useThrottledResize(onResize);
  return null;
}

function Size() {
  const { width } = useWindowSize();
  return <span data-testid="width">{width}</span>;
}

const resizeTo = (width: number) => {
  Object.defineProperty(window, 'innerWidth', { configurable: true, value: width });
  window.dispatchEvent(new Event('resize'));
};

describe('useThrottledResize', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('calls the handler at most once per 100 ms, and once more for the end of the burst', () => {
    const onResize = vi.fn();
    render(<Counter onResize={onResize} />);
    for (let i = 0; i < 10; i++) window.dispatchEvent(new Event('resize'));
    expect(onResize).toHaveBeenCalledTimes(1);
    act(() => {
      vi.advanceTimersByTime(100);
    });
    expect(onResize).toHaveBeenCalledTimes(2);
  });

  it('stops listening on unmount', () => {
    const onResize = vi.fn();
    const { unmount } = render(<Counter onResize={onResize} />);
    unmount();
    window.dispatchEvent(new Event('resize'));
    act(() => {
      vi.advanceTimersByTime(200);
    });
    expect(onResize).not.toHaveBeenCalled();
  });

  it('useWindowSize follows the window with the last size of a burst', () => {
    render(<Size />);
    act(() => {
      resizeTo(800);
      resizeTo(900);
      resizeTo(1000);
    });
    expect(screen.getByTestId('width').textContent).toBe('800');
    act(() => {
      vi.advanceTimersByTime(100);
    });
    expect(screen.getByTestId('width').textContent).toBe('1000');
  });
});
