import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LOCALE, isLocale, localeMessages, type Locale } from '../../locales';

/** Where the chosen language is remembered between visits. */
export const LOCALE_STORAGE_KEY = 'voltdepot.locale';

type LocaleStorage = Pick<Storage, 'getItem' | 'setItem'>;

export function readStoredLocale(storage: LocaleStorage | undefined): Locale {
  const stored = storage?.getItem(LOCALE_STORAGE_KEY);
  return isLocale(stored) ? stored : DEFAULT_LOCALE;
}

export type CreateI18nOptions = {
  /** Defaults to the stored choice, then zh-CN. */
  locale?: Locale;
  /** Defaults to localStorage in the browser; tests pass their own. */
  storage?: LocaleStorage;
};

/** One i18next instance per app (and per test), initialised synchronously from bundled resources. */
export function createI18n(options: CreateI18nOptions = {}): I18n {
  const storage = options.storage ?? browserStorage();
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    lng: options.locale ?? readStoredLocale(storage),
    fallbackLng: DEFAULT_LOCALE,
    supportedLngs: Object.keys(localeMessages),
    resources: Object.fromEntries(
      Object.entries(localeMessages).map(([locale, messages]) => [locale, { translation: messages }]),
    ),
    interpolation: { escapeValue: false }, // React escapes already
    initAsync: false,
    react: { useSuspense: false },
  });
  instance.on('languageChanged', (language) => {
    if (!isLocale(language)) return;
    storage?.setItem(LOCALE_STORAGE_KEY, language);
    if (typeof document !== 'undefined') document.documentElement.lang = language;
  });
  return instance;
}

/** The instance's language as a console locale (zh-CN when it is anything else). */
export function localeOf(i18n: Pick<I18n, 'language'>): Locale {
  return isLocale(i18n.language) ? i18n.language : DEFAULT_LOCALE;
}

function browserStorage(): LocaleStorage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined; // storage disabled by the browser: the choice just isn't remembered
  }
}
