/**
 * The browser globals used inside page.evaluate callbacks. The scripts compile without DOM typings, so
 * callbacks reach them as `(globalThis as unknown as BrowserGlobals)`; the type is erased, and in the page
 * `globalThis` is the window.
 */
export type BrowserGlobals = {
  localStorage: { getItem(key: string): string | null; setItem(key: string, value: string): void };
  getComputedStyle(element: unknown): { backgroundColor: string };
  document: {
    documentElement: { lang: string };
    querySelector(selector: string): { textContent: string | null } | null;
  };
};
