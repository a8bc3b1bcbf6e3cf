import { pageStyleNonce, stampStyleNonces } from './styleNonce';

function pageWith(head: string): Document {
  const doc = document.implementation.createHTMLDocument('page');
  doc.head.innerHTML = head;
  return doc;
}

describe('style nonces', () => {
  it("stamps the page's nonce on every style element the scripts create, and on nothing else", () => {
    const doc = pageWith('<meta property="csp-nonce" nonce="n0nce+/=">');
    stampStyleNonces(doc);
    const style = doc.createElement('style');
    expect(style.nonce).toBe('n0nce+/=');
    expect(doc.createElement('div').hasAttribute('nonce')).toBe(false);
    expect((doc.createElement('div') as HTMLElement & { nonce?: string }).nonce ?? '').toBe('');
  });

  it('leaves the document alone when the page has no nonce (the Vite dev server)', () => {
    const doc = pageWith('');
    const create = doc.createElement;
    stampStyleNonces(doc);
    expect(doc.createElement).toBe(create);
    expect(pageStyleNonce(doc)).toBeUndefined();
  });

  it('does not stamp style markup parsed from text', () => {
    const doc = pageWith('<meta property="csp-nonce" nonce="abc">');
    stampStyleNonces(doc);
    const holder = doc.createElement('div');
    holder.innerHTML = '<style>body{display:none}</style>';
    expect((holder.firstChild as HTMLStyleElement).nonce ?? '').toBe('');
  });
});
