import dayjs from 'dayjs';
import 'dayjs/locale/en';
import 'dayjs/locale/zh-cn';
import type { Locale } from '../../locales';

/** dayjs's name of each console language (DatePicker month and weekday names come from dayjs). */
export const DAYJS_LOCALES = { 'zh-CN': 'zh-cn', 'en-US': 'en' } as const satisfies Record<Locale, string>;

/** Makes dayjs's global locale the console's language; dates made after this use it. */
export function applyDayjsLocale(locale: Locale): void {
  if (dayjs.locale() !== DAYJS_LOCALES[locale]) dayjs.locale(DAYJS_LOCALES[locale]);
}
