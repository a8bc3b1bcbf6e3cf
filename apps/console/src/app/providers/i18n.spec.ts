import { describe, expect, it } from 'vitest';
import { memoryStorage } from '../../test/memoryStorage';
import { createI18n, LOCALE_STORAGE_KEY, readStoredLocale } from './i18n';

describe('i18n', () => {
  it('starts in zh-CN when nothing is stored', () => {
    const i18n = createI18n({ storage: memoryStorage() });
    expect(i18n.language).toBe('zh-CN');
    expect(i18n.t('request.sessionExpired')).toBe('登录状态已过期，请重新登录');
  });

  it('starts in the stored language', () => {
    const i18n = createI18n({ storage: memoryStorage({ [LOCALE_STORAGE_KEY]: 'en-US' }) });
    expect(i18n.t('request.sessionExpired')).toBe('login status expired, please log in again');
  });

  it('switches at runtime and remembers the choice', async () => {
    const storage = memoryStorage();
    const i18n = createI18n({ storage });
    await i18n.changeLanguage('en-US');
    expect(i18n.t('menu.home')).toBe('Home');
    expect(storage.getItem(LOCALE_STORAGE_KEY)).toBe('en-US');
    expect(document.documentElement.lang).toBe('en-US');
    expect(createI18n({ storage }).language).toBe('en-US');
  });

  it.each([
    [null, 'zh-CN'],
    ['en-US', 'en-US'],
    ['zh-CN', 'zh-CN'],
    ['fr-FR', 'zh-CN'],
    ['', 'zh-CN'],
  ])('stored %j -> %s', (stored, expected) => {
    const storage = memoryStorage(stored === null ? {} : { [LOCALE_STORAGE_KEY]: stored });
    expect(readStoredLocale(storage)).toBe(expected);
  });

  it('interpolates without HTML escaping (React escapes)', () => {
    const i18n = createI18n({ locale: 'en-US', storage: memoryStorage() });
    expect(i18n.t('home.now', { time: '2025-03-01 08:00:00' })).toBe('Current time: 2025-03-01 08:00:00');
  });
});
