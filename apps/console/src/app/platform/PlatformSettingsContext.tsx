import { createContext, useCallback, useContext, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { applyBusinessTimeZone } from '../format/businessTime';
import { DEFAULT_PLATFORM_SETTINGS, systemTitleOf, type PlatformSettings } from './platformSettings';

const PlatformSettingsContext = createContext<PlatformSettings>(DEFAULT_PLATFORM_SETTINGS);

export function PlatformSettingsProvider({
  settings,
  children,
}: {
  settings: PlatformSettings;
  children: ReactNode;
}) {
  // Before the children render, so every time they format and every default range they build is in the
  // business time zone (module-level, as dayjs's locale: the settings do not change within a session).
  applyBusinessTimeZone(settings.businessTimeZone);
  return <PlatformSettingsContext.Provider value={settings}>{children}</PlatformSettingsContext.Provider>;
}

export function usePlatformSettings(): PlatformSettings {
  return useContext(PlatformSettingsContext);
}

/** The business time zone of the platform settings (Asia/Shanghai when not set). */
export function useBusinessTimeZone(): string {
  return usePlatformSettings().businessTimeZone;
}

/** The system title in the current language. */
export function useSystemTitle(): string {
  const settings = usePlatformSettings();
  const { t, i18n } = useTranslation();
  const translate = useCallback(
    (key: string) => (i18n.exists(key) ? String(i18n.t(key as never)) : key),
    [i18n],
  );
  return systemTitleOf(settings, translate, t('app.title'));
}
