export type QueryValue = string | number | boolean | null | undefined;
export type QueryParams = Record<string, QueryValue | readonly QueryValue[]>;

const SQUARE_BRACKET = /[[\]]/;

function entriesOf(params: QueryParams, keepEmptyStrings: boolean): [string, string][] {
  const entries: [string, string][] = [];
  for (const [key, raw] of Object.entries(params)) {
    const values = Array.isArray(raw) ? raw : [raw];
    for (const value of values as readonly QueryValue[]) {
      if (value === null || value === undefined) continue;
      if (value === '' && !keepEmptyStrings) continue;
      entries.push([key, String(value)]);
    }
  }
  return entries;
}

/** encodeURIComponent, but square brackets stay as they are. */
function encodeKeepingBrackets(value: string): string {
  return encodeURIComponent(value).replace(/%5B/gi, '[').replace(/%5D/gi, ']');
}

/**
 * The query string of a GET (without '?'). Null and undefined values are left out; arrays repeat the key.
 * When a value contains square brackets the string is built by hand (spec §7) so the brackets reach
 * the server literally instead of as %5B/%5D; everything else is still percent-encoded.
 */
export function buildQueryString(
  params: QueryParams | undefined,
  options: { dropEmpty?: boolean } = {},
): string {
  if (!params) return '';
  const entries = entriesOf(params, !options.dropEmpty);
  if (entries.some(([, value]) => SQUARE_BRACKET.test(value))) {
    return entries
      .map(([key, value]) => `${encodeURIComponent(key)}=${encodeKeepingBrackets(value)}`)
      .join('&');
  }
  return new URLSearchParams(entries).toString();
}

export function withQuery(
  url: string,
  params: QueryParams | undefined,
  options?: { dropEmpty?: boolean },
): string {
  const query = buildQueryString(params, options);
  if (!query) return url;
  return `${url}${url.includes('?') ? '&' : '?'}${query}`;
}

/** Base URL + path: '' + '/api/x' -> '/api/x'; 'https://h/base/' + 'ms/m1/msg' -> 'https://h/base/ms/m1/msg'. */
export function joinUrl(baseUrl: string, path: string): string {
  if (/^[a-z][a-z\d+.-]*:\/\//i.test(path)) return path;
  const base = baseUrl.replace(/\/+$/, '');
  const tail = path.startsWith('/') ? path : `/${path}`;
  return `${base}${tail}`;
}
