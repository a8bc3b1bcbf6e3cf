import {
  CITY_CODES,
  decryptPlatformConfig,
  LOGO_TITLE_MODES,
  PlatformConfigKeys,
  type CityCode,
  type EncryptedPlatformConfig,
  type PlatformConfigEntry,
} from '@voltdepot/shared-contracts';
import { DEFAULT_BUSINESS_TIME_ZONE, isTimeZone } from '../format/businessTime';

export type LogoTitleMode = (typeof LOGO_TITLE_MODES)[number];
/** A system offered on /home (several of them turn the desktop icon into a link to /home). */
export type SystemLink = { name: string; url: string };

/** The public platform settings (spec §7: loaded at start-up, merged into the app configuration). */
export type PlatformSettings = {
  systemName: string;
  systemTitle: string;
  logo: string;
  /** '1' logo and title, '2' title only, '3' logo only. */
  logoTitleMode: LogoTitleMode;
  /** The notification bell is shown. */
  noticeIcon: boolean;
  /** The big-screen link is enabled (the go_screen permission is needed too). */
  bigScreen: boolean;
  cityCode: CityCode | undefined;
  systemList: SystemLink[];
  /** The zone every time is shown in and every default range is built in (an IANA name). */
  businessTimeZone: string;
  /** Every entry as sent, for settings the shell does not know about. */
  entries: Readonly<Record<string, string>>;
};

export const DEFAULT_LOGO = `${import.meta.env.BASE_URL}logo.svg`;

/** Used when the list cannot be loaded or decrypted: the console still starts. */
export const DEFAULT_PLATFORM_SETTINGS: PlatformSettings = {
  systemName: '',
  systemTitle: '',
  logo: DEFAULT_LOGO,
  logoTitleMode: '1',
  noticeIcon: false,
  bigScreen: false,
  cityCode: undefined,
  systemList: [],
  businessTimeZone: DEFAULT_BUSINESS_TIME_ZONE,
  entries: {},
};

const isOneOf = <T extends string>(values: readonly T[], value: string | undefined): value is T =>
  value !== undefined && (values as readonly string[]).includes(value);

function parseSystemList(raw: string | undefined): SystemLink[] {
  if (!raw) return [];
  try {
    const value: unknown = JSON.parse(raw);
    if (!Array.isArray(value)) return [];
    return value.flatMap((item: unknown) => {
      if (typeof item !== 'object' || item === null) return [];
      const { name, url } = item as { name?: unknown; url?: unknown };
      return typeof name === 'string' && typeof url === 'string' && name && url ? [{ name, url }] : [];
    });
  } catch {
    return [];
  }
}

/** The settings of a decrypted list; unknown or malformed values fall back to the defaults. */
export function parsePlatformSettings(list: readonly PlatformConfigEntry[]): PlatformSettings {
  const entries: Record<string, string> = {};
  for (const entry of list) {
    if (typeof entry?.configKey === 'string') entries[entry.configKey] = String(entry.configValue ?? '');
  }
  const get = (key: string) => entries[key]?.trim();
  const mode = get(PlatformConfigKeys.LogoTitleMode);
  const city = get(PlatformConfigKeys.CityCode);
  const zone = get(PlatformConfigKeys.BusinessTimeZone);
  return {
    systemName: get(PlatformConfigKeys.SystemName) ?? '',
    systemTitle: get(PlatformConfigKeys.SystemTitle) ?? '',
    logo: get(PlatformConfigKeys.Logo) || DEFAULT_LOGO,
    logoTitleMode: isOneOf(LOGO_TITLE_MODES, mode) ? mode : DEFAULT_PLATFORM_SETTINGS.logoTitleMode,
    noticeIcon: get(PlatformConfigKeys.NoticeIcon) === '1',
    bigScreen: get(PlatformConfigKeys.BigScreen) === '1',
    cityCode: isOneOf(CITY_CODES, city) ? city : undefined,
    systemList: parseSystemList(get(PlatformConfigKeys.SystemList)),
    businessTimeZone: isTimeZone(zone) ? zone : DEFAULT_BUSINESS_TIME_ZONE,
    entries,
  };
}

export type LoadPlatformSettingsDeps = {
  /** GET /public/noAuth/getPlatformModuleConfigList (undefined when there was no answer). */
  fetchList: () => Promise<EncryptedPlatformConfig | undefined>;
  /** VITE_PLATFORM_CONFIG_KEY, the passphrase shared with the api's PLATFORM_CONFIG_KEY. */
  passphrase: string;
  onError?: (error: unknown) => void;
};

/** Loads and decrypts the public settings before the first render; never fails (defaults instead). */
export async function loadPlatformSettings(deps: LoadPlatformSettingsDeps): Promise<PlatformSettings> {
  try {
    const payload = await deps.fetchList();
    if (!payload) throw new Error('no answer from /public/noAuth/getPlatformModuleConfigList');
    return parsePlatformSettings(await decryptPlatformConfig(payload, deps.passphrase));
  } catch (error) {
    deps.onError?.(error);
    return DEFAULT_PLATFORM_SETTINGS;
  }
}

/** Texts containing 'menu' are i18n keys (spec §2: the title is translated if it contains 'menu'). */
export function translateIfKey(text: string, translate: (key: string) => string): string {
  return text.includes('menu') ? translate(text) : text;
}

/** The header title: the system name (translated when it contains 'menu'), else the configured title. */
export function systemTitleOf(
  settings: Pick<PlatformSettings, 'systemName' | 'systemTitle'>,
  translate: (key: string) => string,
  fallback: string,
): string {
  const text = settings.systemName || settings.systemTitle;
  return text ? translateIfKey(text, translate) : fallback;
}

/** Spec §2: the city code changes the theme colour. */
export const CITY_THEME_COLORS: Record<CityCode, string> = {
  fz: '#1677ff',
  hefei: '#13a8a8',
  tm166: '#d4380d',
};
export const DEFAULT_THEME_COLOR = '#1677ff';

export function themeColorOf(cityCode: CityCode | undefined): string {
  return cityCode ? CITY_THEME_COLORS[cityCode] : DEFAULT_THEME_COLOR;
}
