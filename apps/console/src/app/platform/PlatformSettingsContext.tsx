import { createContext, useCallback, useContext, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_PLATFORM_SETTINGS, systemTitleOf, type PlatformSettings } from './platformSettings';

const PlatformSettingsContext = createContext<PlatformSettings>(DEFAULT_PLATFORM_SETTINGS);

export function PlatformSettingsProvider({
  settings,
  children,
}: {
  settings: PlatformSettings;
  children: ReactNode;
}) {
  return <PlatformSettingsContext.Provider value={settings}>{children}</PlatformSettingsContext.Provider>;
}

export function usePlatformSettings(): PlatformSettings {
  return useContext(PlatformSettingsContext);
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
