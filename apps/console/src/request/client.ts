import type { ErrorBody } from '@voltdepot/shared-contracts';
import { parseContentDisposition, saveBlobInBrowser, xlsxFileName, type FileResult } from './download';
import { RequestError, toErrorBody } from './errors';
import { joinUrl, withQuery, type QueryParams } from './query';
import { isTokenExpired, type SessionStore, type SessionToken } from './session';

/** Spec §9: request time-out 120000 ms (one area is said to use 1,800,000 ms; pass `timeout` for it). */
export const REQUEST_TIMEOUT_MS = 120_000;
/** Spec §9: the session-expiry message shows for 3 s, other error messages for 5 s. */
export const SESSION_EXPIRED_MESSAGE_SECONDS = 3;
export const ERROR_MESSAGE_SECONDS = 5;
/** Spec §2: where an expired session goes. */
export const LOGIN_PATH = '/login';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The texts the request layer shows; the keys live in src/locales. */
export type RequestMessageKey = 'request.sessionExpired' | 'request.fileDownloadFailed';

export type RequestNotifier = {
  error(content: string, durationSeconds: number): void;
  warning(content: string, durationSeconds: number): void;
};

/** Exchanges an expired session for a fresh one. The endpoint is not specified yet (spec §7). */
export type TokenRefresher = (expired: SessionToken) => Promise<SessionToken>;

export type RequestClientDeps = {
  /** Prefix for every path (VITE_API_BASE); '' means same origin. */
  baseUrl: string;
  session: SessionStore;
  /** Optional: without it an expired token is sent as is and the server's 401 ends the session. */
  refreshToken?: TokenRefresher;
  notify: RequestNotifier;
  translate: (key: RequestMessageKey) => string;
  navigate: (path: string) => void;
  reload: () => void;
  currentPath: () => string;
  saveFile?: (data: Blob, fileName: string) => void;
  openWindow?: (url: string) => void;
  fetch?: typeof fetch;
  now?: () => number;
  /** Default time-out of every call; 120000 ms unless given. */
  timeoutMs?: number;
  /** The console's current language (zh-CN, en-US), sent as Accept-Language on every call. */
  language?: () => string | undefined;
  /**
   * The text shown for an error answer, in the user's language (a translation of its code); undefined
   * shows the server's message.
   */
  errorMessage?: (body: Partial<ErrorBody>) => string | undefined;
};

export type RequestOptions = {
  params?: QueryParams;
  /** Plain values are sent as JSON; FormData, Blob, URLSearchParams and strings as they are. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Milliseconds; overrides the client's default (120000). */
  timeout?: number;
  /** Cancels the call (react-query passes one); a cancelled call rejects with the abort reason. */
  signal?: AbortSignal;
  /** 'blob' answers with a FileResult whatever the headers say. */
  responseType?: 'json' | 'blob';
};

export type DownloadOptions = Omit<RequestOptions, 'responseType'> & { method?: HttpMethod };
export type ExportOptions = DownloadOptions & { fileName?: string };

export type RequestClient = {
  /**
   * Resolves with the parsed body (a FileResult when the answer has a content-disposition header).
   * Resolves with undefined when there was no response (network failure, time-out) or an error answer
   * had no message (spec §8: passed through as a resolved value). Rejects with a RequestError on 401
   * and on an error answer with a message (after showing it), and with the abort reason when cancelled.
   */
  request<T>(method: HttpMethod, path: string, options?: RequestOptions): Promise<T | undefined>;
  get<T>(path: string, options?: Omit<RequestOptions, 'body'>): Promise<T | undefined>;
  post<T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>): Promise<T | undefined>;
  put<T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>): Promise<T | undefined>;
  patch<T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>): Promise<T | undefined>;
  delete<T>(path: string, options?: RequestOptions): Promise<T | undefined>;
  /** A file; warns 'file download failed' and resolves undefined when nothing came back. */
  download(path: string, options?: DownloadOptions): Promise<FileResult | undefined>;
  /** Downloads and saves an Excel export as .xlsx; resolves with the saved name, or undefined. */
  exportExcel(path: string, options?: ExportOptions): Promise<string | undefined>;
  /** Template export: opens base URL + path with the non-empty params as query, in a new tab. */
  openExportLink(path: string, params?: QueryParams): void;
};

export function createRequestClient(deps: RequestClientDeps): RequestClient {
  const fetchImpl = deps.fetch ?? ((input, init) => fetch(input, init));
  const now = deps.now ?? Date.now;
  const saveFile = deps.saveFile ?? saveBlobInBrowser;
  const openWindow = deps.openWindow ?? ((url: string) => void window.open(url, '_blank', 'noopener'));

  // Many calls can fail with 401 at once; the user is told and sent to /login only once
  // per session. A new session (the next sign-in) re-arms it.
  let sessionExpiryHandled = false;
  deps.session.subscribe((token) => {
    if (token) sessionExpiryHandled = false;
  });

  // Concurrent calls with an expired token share one refresh.
  let refreshing: Promise<SessionToken> | null = null;

  async function usableToken(): Promise<SessionToken | null> {
    const token = deps.session.get();
    if (!token || !deps.refreshToken || !isTokenExpired(token, now())) return token;
    refreshing ??= deps
      .refreshToken(token)
      .then(
        (fresh) => {
          deps.session.set(fresh);
          return fresh;
        },
        // Refresh failed: send the old token; the server's 401 then ends the session the usual way.
        () => token,
      )
      .finally(() => {
        refreshing = null;
      });
    return refreshing;
  }

  function sessionEnded(sentWithToken: boolean): void {
    if (sentWithToken) {
      if (sessionExpiryHandled) return;
      sessionExpiryHandled = true;
      deps.notify.error(deps.translate('request.sessionExpired'), SESSION_EXPIRED_MESSAGE_SECONDS);
      deps.session.clear();
      deps.navigate(LOGIN_PATH);
      return;
    }
    if (!isLoginPath(deps.currentPath())) deps.reload();
  }

  async function handleResponse(
    response: Response,
    sentWithToken: boolean,
    options: RequestOptions,
  ): Promise<unknown> {
    if (response.ok) return readSuccess(response, options);
    if (response.status === 401) {
      const body = await readErrorBody(response);
      sessionEnded(sentWithToken);
      throw new RequestError(401, body);
    }
    const body = await readErrorBody(response);
    if (!body?.message) return undefined; // no body to report: passed through as a resolved value (spec §8)
    const message = deps.errorMessage?.(body) ?? body.message;
    deps.notify.error(message, ERROR_MESSAGE_SECONDS);
    throw new RequestError(response.status, body, message);
  }

  async function send(method: HttpMethod, path: string, options: RequestOptions = {}): Promise<unknown> {
    const token = await usableToken();
    options.signal?.throwIfAborted();
    const headers = new Headers(options.headers);
    if (!headers.has('Accept')) headers.set('Accept', 'application/json, */*');
    if (token) headers.set('Authorization', `Bearer ${token.accessToken}`);
    const language = deps.language?.();
    if (language && !headers.has('Accept-Language')) headers.set('Accept-Language', language);
    const body = encodeBody(options.body, headers);

    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(),
      options.timeout ?? deps.timeoutMs ?? REQUEST_TIMEOUT_MS,
    );
    const callerAbort = () => controller.abort(options.signal?.reason);
    options.signal?.addEventListener('abort', callerAbort, { once: true });

    try {
      const url = withQuery(joinUrl(deps.baseUrl, path), options.params);
      const response = await fetchImpl(url, { method, headers, body, signal: controller.signal });
      // Still inside the time-out: a body that never finishes counts as no response.
      return await handleResponse(response, Boolean(token), options);
    } catch (error) {
      if (error instanceof RequestError) throw error;
      if (options.signal?.aborted) throw options.signal.reason ?? error;
      // Network failure or time-out: no response, passed through as a resolved value (spec §8).
      return undefined;
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', callerAbort);
    }
  }

  async function download(path: string, options: DownloadOptions = {}): Promise<FileResult | undefined> {
    const { method = 'GET', ...rest } = options;
    const file = (await send(method, path, { ...rest, responseType: 'blob' })) as FileResult | undefined;
    if (!file || file.data.size === 0) {
      deps.notify.warning(deps.translate('request.fileDownloadFailed'), ERROR_MESSAGE_SECONDS);
      return undefined;
    }
    return file;
  }

  return {
    request: <T>(method: HttpMethod, path: string, options?: RequestOptions) =>
      send(method, path, options) as Promise<T | undefined>,
    get: <T>(path: string, options?: Omit<RequestOptions, 'body'>) =>
      send('GET', path, options) as Promise<T | undefined>,
    post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>) =>
      send('POST', path, { ...options, body }) as Promise<T | undefined>,
    put: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>) =>
      send('PUT', path, { ...options, body }) as Promise<T | undefined>,
    patch: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>) =>
      send('PATCH', path, { ...options, body }) as Promise<T | undefined>,
    delete: <T>(path: string, options?: RequestOptions) =>
      send('DELETE', path, options) as Promise<T | undefined>,
    download,
    async exportExcel(path, options = {}) {
      const { fileName, ...rest } = options;
      const file = await download(path, rest);
      if (!file) return undefined;
      const savedAs = xlsxFileName(fileName ?? file.fileName ?? 'export');
      saveFile(file.data, savedAs);
      return savedAs;
    },
    openExportLink(path, params) {
      openWindow(withQuery(joinUrl(deps.baseUrl, path), params, { dropEmpty: true }));
    },
  };
}

function isLoginPath(pathname: string): boolean {
  return pathname.replace(/\/+$/, '') === LOGIN_PATH;
}

async function readSuccess(response: Response, options: RequestOptions): Promise<unknown> {
  const disposition = response.headers.get('content-disposition');
  if (options.responseType === 'blob' || disposition) {
    const file: FileResult = { data: await response.blob(), fileName: parseContentDisposition(disposition) };
    return file;
  }
  const text = await response.text();
  if (text === '') return undefined;
  const contentType = response.headers.get('content-type') ?? '';
  return /[/+]json\b/i.test(contentType) ? JSON.parse(text) : text;
}

async function readErrorBody(response: Response): Promise<Partial<ErrorBody> | undefined> {
  try {
    const text = await response.text();
    return text ? toErrorBody(JSON.parse(text)) : undefined;
  } catch {
    return undefined; // not JSON: there is no message to show
  }
}

function encodeBody(body: unknown, headers: Headers): BodyInit | undefined {
  if (body === undefined || body === null) return undefined;
  if (
    typeof body === 'string' ||
    body instanceof FormData ||
    body instanceof Blob ||
    body instanceof URLSearchParams ||
    body instanceof ArrayBuffer
  ) {
    return body;
  }
  if (!headers.has('Content-Type')) headers.set('Content-Type', 'application/json');
  return JSON.stringify(body);
}
