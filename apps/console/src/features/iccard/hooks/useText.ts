import { useTranslation } from 'react-i18next';

/** A translation function taking keys built from codes (`iccard.status.${status}`). */
export type Translate = (key: string, options?: Record<string, unknown>) => string;

/**
 * The IC-card screens look up labels by code (status, action, message code...): keys the typed `t`
 * cannot list. Every such key exists in both languages (locales.ts builds them from the contracts).
 */
export function useText(): { t: Translate } {
  const { t } = useTranslation();
  return { t: t as unknown as Translate };
}
