import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_LOCALE, isLocale, type Locale } from '../../locales';

/** The current console language and a setter; the choice is persisted by the i18n instance. */
export function useLocale(): { locale: Locale; setLocale: (locale: Locale) => void } {
  const { i18n } = useTranslation();
  const locale = isLocale(i18n.language) ? i18n.language : DEFAULT_LOCALE;
  const setLocale = useCallback((next: Locale) => void i18n.changeLanguage(next), [i18n]);
  return { locale, setLocale };
}
