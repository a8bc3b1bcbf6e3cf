import { message } from 'antd';
import { DEFAULT_LOCALE, isLocale, type Locale } from '../locales';
import { zhCN } from '../locales/zh-CN';
import type { RequestMessageKey, RequestNotifier, TokenRefresher } from './client';

/**
 * What the shared request client needs from the running app. The app binds its router, its antd
 * message API (which follows the ConfigProvider theme) and its i18n once they exist; until then
 * the fallbacks below are used.
 */
export type RequestRuntime = {
  notify: RequestNotifier;
  navigate: (path: string) => void;
  translate: (key: RequestMessageKey) => string;
  refreshToken: TokenRefresher | undefined;
  /** The console's current language: Accept-Language and the language of error messages. */
  language: () => Locale;
};

const fallback: RequestRuntime = {
  notify: {
    error: (content, seconds) => void message.error(content, seconds),
    warning: (content, seconds) => void message.warning(content, seconds),
  },
  navigate: (path) => window.location.assign(path),
  translate: (key) => zhCN.request[key.slice('request.'.length) as keyof typeof zhCN.request],
  refreshToken: undefined,
  language: () => {
    const lang = typeof document === 'undefined' ? undefined : document.documentElement.lang;
    return isLocale(lang) ? lang : DEFAULT_LOCALE;
  },
};

export const requestRuntime: RequestRuntime = { ...fallback };

/** Binds part of the runtime; the returned function restores what was there before. */
export function bindRequestRuntime(binding: Partial<RequestRuntime>): () => void {
  const previous = { ...requestRuntime };
  Object.assign(requestRuntime, binding);
  return () => {
    Object.assign(requestRuntime, previous);
  };
}
