import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { Locale } from '../../locales';
import { localeOf } from './i18n';

/** The current console language and a setter; the choice is persisted by the i18n instance. */
export function useLocale(): { locale: Locale; setLocale: (locale: Locale) => void } {
  const { i18n } = useTranslation();
  const locale = localeOf(i18n);
  const setLocale = useCallback((next: Locale) => void i18n.changeLanguage(next), [i18n]);
  return { locale, setLocale };
}
