// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';
import type { EncryptedPlatformConfig, PlatformConfigEntry } from '@voltdepot/shared-contracts';
import {
  DEFAULT_PLATFORM_SETTINGS,
  loadPlatformSettings,
  parsePlatformSettings,
  systemTitleOf,
  themeColorOf,
} from './platformSettings';

const entry = (configKey: string, configValue: string): PlatformConfigEntry => ({ configKey, configValue });

/** What the api sends: AES-256-GCM under SHA-256(passphrase), ciphertext followed by the tag. */
async function encrypt(entries: PlatformConfigEntry[], passphrase: string): Promise<EncryptedPlatformConfig> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(passphrase));
  const key = await crypto.subtle.importKey('raw', digest, { name: 'AES-GCM' }, false, ['encrypt']);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const data = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv },
    key,
    new TextEncoder().encode(JSON.stringify(entries)),
  );
  return {
    alg: 'AES-256-GCM',
    iv: Buffer.from(iv).toString('base64'),
    data: Buffer.from(data).toString('base64'),
  };
}

const seeded = [
  entry('systemName', 'menu.system.name'),
  entry('systemTitle', 'Voltdepot Charging Operations'),
  entry('logo', '/logo.svg'),
  entry('logoTitleMode', '1'),
  entry('noticeIcon', '1'),
  entry('bigScreen', '1'),
  entry('cityCode', 'fz'),
  entry('systemList', '[]'),
  entry('businessTimeZone', 'Asia/Shanghai'),
];

describe('platform settings', () => {
  it('reads the seeded public list', () => {
    expect(parsePlatformSettings(seeded)).toMatchObject({
      systemName: 'menu.system.name',
      systemTitle: 'Voltdepot Charging Operations',
      logo: '/logo.svg',
      logoTitleMode: '1',
      noticeIcon: true,
      bigScreen: true,
      cityCode: 'fz',
      systemList: [],
      businessTimeZone: 'Asia/Shanghai',
    });
    expect(DEFAULT_PLATFORM_SETTINGS.businessTimeZone).toBe('Asia/Shanghai');
  });

  it.each([
    ['logoTitleMode', '4', { logoTitleMode: '1' }],
    ['logoTitleMode', '3', { logoTitleMode: '3' }],
    ['cityCode', 'shanghai', { cityCode: undefined }],
    ['cityCode', 'tm166', { cityCode: 'tm166' }],
    ['noticeIcon', '0', { noticeIcon: false }],
    ['bigScreen', 'yes', { bigScreen: false }],
    ['systemList', 'not json', { systemList: [] }],
    ['systemList', '{"name":"a"}', { systemList: [] }],
    [
      'systemList',
      '[{"name":"Parking","url":"https://parking.example.com"},{"name":""},{"url":"x"}]',
      { systemList: [{ name: 'Parking', url: 'https://parking.example.com' }] },
    ],
    ['logo', '', { logo: '/logo.svg' }],
    ['businessTimeZone', 'Europe/Berlin', { businessTimeZone: 'Europe/Berlin' }],
    ['businessTimeZone', 'Mars/Olympus', { businessTimeZone: 'Asia/Shanghai' }],
    ['businessTimeZone', '', { businessTimeZone: 'Asia/Shanghai' }],
  ])('%s = %j -> %j', (key, value, expected) => {
    expect(parsePlatformSettings([entry(key, value)])).toMatchObject(expected);
  });

  it('keeps every entry for settings the shell does not know', () => {
    expect(parsePlatformSettings([entry('somethingElse', 'x')]).entries).toEqual({ somethingElse: 'x' });
  });

  it('decrypts the list with the shared passphrase before the first render', async () => {
    const payload = await encrypt(seeded, 'e2e-passphrase');
    const settings = await loadPlatformSettings({
      fetchList: async () => payload,
      passphrase: 'e2e-passphrase',
    });
    expect(settings.cityCode).toBe('fz');
    expect(settings.noticeIcon).toBe(true);
  });

  it.each([
    ['a wrong passphrase', async () => encrypt(seeded, 'other'), 'e2e-passphrase'],
    ['no answer', async () => undefined, 'e2e-passphrase'],
    ['a network failure', async () => Promise.reject(new TypeError('fetch failed')), 'e2e-passphrase'],
  ])('falls back to the defaults on %s', async (_label, fetchList, passphrase) => {
    const onError = vi.fn();
    await expect(loadPlatformSettings({ fetchList, passphrase, onError })).resolves.toBe(
      DEFAULT_PLATFORM_SETTINGS,
    );
    expect(onError).toHaveBeenCalledOnce();
  });

  describe('title (spec §2)', () => {
    const translate = (key: string) => (key === 'menu.system.name' ? 'Voltdepot 充电运营平台' : key);
    it.each([
      [{ systemName: 'menu.system.name', systemTitle: 'Configured' }, 'Voltdepot 充电运营平台'],
      [{ systemName: 'Depot Ops', systemTitle: 'Configured' }, 'Depot Ops'],
      [{ systemName: '', systemTitle: 'Configured' }, 'Configured'],
      [{ systemName: '', systemTitle: '' }, 'Voltdepot'],
    ])('%j -> %s', (settings, expected) => {
      expect(systemTitleOf(settings, translate, 'Voltdepot')).toBe(expected);
    });
  });

  it.each([
    ['fz', '#1677ff'],
    ['hefei', '#13a8a8'],
    ['tm166', '#d4380d'],
    [undefined, '#1677ff'],
  ] as const)('city code %s -> theme colour %s', (city, colour) => {
    expect(themeColorOf(city)).toBe(colour);
  });
});
