import { localeMessages } from '../locales';
import { createRequestClient } from './client';
import { localizeServerError } from './errors';
import { requestRuntime } from './runtime';
import { createSessionStore } from './session';

export {
  createRequestClient,
  ERROR_MESSAGE_SECONDS,
  LOGIN_PATH,
  REQUEST_TIMEOUT_MS,
  SESSION_EXPIRED_MESSAGE_SECONDS,
} from './client';
export type {
  DownloadOptions,
  ExportOptions,
  HttpMethod,
  RequestClient,
  RequestClientDeps,
  RequestMessageKey,
  RequestNotifier,
  RequestOptions,
  TokenRefresher,
} from './client';
export { parseContentDisposition, xlsxFileName, type FileResult } from './download';
export { localizeServerError, RequestError } from './errors';
export { buildQueryString, joinUrl, type QueryParams } from './query';
export { bindRequestRuntime, type RequestRuntime } from './runtime';
export {
  createSessionStore,
  isTokenExpired,
  SESSION_STORAGE_KEY,
  type SessionStore,
  type SessionToken,
} from './session';

/** Prefix of every request (VITE_API_BASE); '' means the console's own origin. */
export const apiBaseUrl: string = import.meta.env.VITE_API_BASE ?? '';

/** The signed-in session of this browser tab (persisted in localStorage). */
export const sessionStore = createSessionStore();

/** The one request client of the console (conventions, "Console"). */
export const request = createRequestClient({
  baseUrl: apiBaseUrl,
  session: sessionStore,
  refreshToken: (expired) =>
    requestRuntime.refreshToken
      ? requestRuntime.refreshToken(expired)
      : Promise.reject(new Error('no token refresh endpoint is bound yet')),
  notify: {
    error: (content, seconds) => requestRuntime.notify.error(content, seconds),
    warning: (content, seconds) => requestRuntime.notify.warning(content, seconds),
  },
  translate: (key) => requestRuntime.translate(key),
  navigate: (path) => requestRuntime.navigate(path),
  reload: () => window.location.reload(),
  currentPath: () => window.location.pathname,
  language: () => requestRuntime.language(),
  errorMessage: (body) => localizeServerError(body, localeMessages[requestRuntime.language()].serverError),
});
