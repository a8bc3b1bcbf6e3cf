/** The nonce the console server wrote into this page (Vite's `<meta property="csp-nonce">`), if any. */
export function pageStyleNonce(doc: Document): string | undefined {
  const meta = doc.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]');
  // Browsers hide the attribute once the policy applies; the property keeps it.
  return meta?.nonce || meta?.getAttribute('nonce') || undefined;
}

/**
 * The console server's policy admits a <style> element only with the page's nonce (a new one per page load).
 * antd's CSS-in-JS, the scroll locker of antd's dialogs (rc-component) and the rich-text editor create style
 * elements as they render, and only antd has a setting for a nonce. Giving the nonce to every style element
 * the console's own scripts create covers them all; style markup injected into the page still gets none.
 */
export function stampStyleNonces(doc: Document): void {
  const nonce = pageStyleNonce(doc);
  if (nonce === undefined) return;
  const create = doc.createElement.bind(doc) as (
    tagName: string,
    options?: ElementCreationOptions,
  ) => HTMLElement;
  doc.createElement = ((tagName: string, options?: ElementCreationOptions) => {
    const element = create(tagName, options);
    if (element.tagName === 'STYLE') (element as HTMLStyleElement).nonce = nonce;
    return element;
  }) as Document['createElement'];
}
