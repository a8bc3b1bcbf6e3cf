import { act, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';

export type Rendered = { container: HTMLElement; unmount: () => void };

const mounted = new Set<Rendered>();

/** Renders into a detached-from-nothing div in document.body (a small stand-in for testing-library). */
export async function render(ui: ReactNode): Promise<Rendered> {
  const container = document.createElement('div');
  document.body.appendChild(container);
  const root = createRoot(container);
  await act(async () => root.render(ui));
  const rendered: Rendered = {
    container,
    unmount: () => {
      if (!mounted.delete(rendered)) return;
      act(() => root.unmount());
      container.remove();
    },
  };
  mounted.add(rendered);
  return rendered;
}

/** Unmounts what the test rendered and empties the page (antd's portals stay in body); run after each test. */
export function cleanup(): void {
  for (const rendered of [...mounted]) rendered.unmount();
  document.body.innerHTML = '';
}

/** Retries an assertion until it passes (lazy routes resolve over a few ticks). */
export async function waitFor(assertion: () => void, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      assertion();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
    }
  }
}
