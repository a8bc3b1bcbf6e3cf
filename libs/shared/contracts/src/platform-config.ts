/**
 * `GET /public/noAuth/getPlatformModuleConfigList` answers with the entries `{ configKey, configValue }`
 * encrypted with AES-256-GCM under a key both the server and the console know (the key is SHA-256 of
 * a shared passphrase, PLATFORM_CONFIG_KEY on the server and VITE_PLATFORM_CONFIG_KEY in the console).
 * The passphrase ships inside the console bundle, so this only stops casual reading of the response;
 * nothing secret may ever be a public platform setting.
 */
export type PlatformConfigEntry = { configKey: string; configValue: string };

export type EncryptedPlatformConfig = {
  alg: 'AES-256-GCM';
  /** 12 random bytes, base64. */
  iv: string;
  /** base64 of ciphertext followed by the 16-byte tag (the layout Web Crypto expects). */
  data: string;
};

/** The keys the console reads; values are strings. */
export const PlatformConfigKeys = {
  SystemName: 'systemName',
  SystemTitle: 'systemTitle',
  Logo: 'logo',
  /** '1' logo and title, '2' title only, '3' logo only. */
  LogoTitleMode: 'logoTitleMode',
  /** '1' shows the notification bell, '0' hides it. */
  NoticeIcon: 'noticeIcon',
  /** '1' enables the big-screen link (with the go_screen permission). */
  BigScreen: 'bigScreen',
  /** One of 'fz', 'hefei', 'tm166'. */
  CityCode: 'cityCode',
  /** JSON array of `{ name, url }`: the systems offered on /home. */
  SystemList: 'systemList',
  /** IANA zone: every time the console shows and every default range it builds (default Asia/Shanghai). */
  BusinessTimeZone: 'businessTimeZone',
} as const;

export const CITY_CODES = ['fz', 'hefei', 'tm166'] as const;
export type CityCode = (typeof CITY_CODES)[number];
export const LOGO_TITLE_MODES = ['1', '2', '3'] as const;

// Contracts compile without DOM or Node typings: declare the few Web APIs used (present in browsers and Node 20).
type WebApis = {
  atob(text: string): string;
  TextEncoder: new () => { encode(text: string): Uint8Array };
  TextDecoder: new () => { decode(bytes: ArrayBuffer): string };
  crypto: {
    subtle: {
      digest(algorithm: string, data: Uint8Array): Promise<ArrayBuffer>;
      importKey(
        format: 'raw',
        key: ArrayBuffer,
        algorithm: { name: 'AES-GCM' },
        extractable: boolean,
        usages: string[],
      ): Promise<unknown>;
      decrypt(
        algorithm: { name: 'AES-GCM'; iv: Uint8Array },
        key: unknown,
        data: Uint8Array,
      ): Promise<ArrayBuffer>;
    };
  };
};
const web = globalThis as unknown as WebApis;

function fromBase64(text: string): Uint8Array {
  const binary = web.atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Decrypts the platform configuration list (browser and Node 20: Web Crypto). */
export async function decryptPlatformConfig(
  payload: EncryptedPlatformConfig,
  passphrase: string,
): Promise<PlatformConfigEntry[]> {
  const digest = await web.crypto.subtle.digest('SHA-256', new web.TextEncoder().encode(passphrase));
  const key = await web.crypto.subtle.importKey('raw', digest, { name: 'AES-GCM' }, false, ['decrypt']);
  const plain = await web.crypto.subtle.decrypt(
    { name: 'AES-GCM', iv: fromBase64(payload.iv) },
    key,
    fromBase64(payload.data),
  );
  return JSON.parse(new web.TextDecoder().decode(plain)) as PlatformConfigEntry[];
}
