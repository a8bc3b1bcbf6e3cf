// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { bigScreenUrl, desktopActionOf, isWorkplaceChatBrowser } from './desktopLink';

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36';
const DINGTALK =
  'Mozilla/5.0 (Windows NT 10.0) AppleWebKit/537.36 Chrome/91.0 Safari/537.36 DingTalk(7.0.40) nw';

const base = {
  systemCount: 1,
  bigScreen: true,
  canGoScreen: true,
  userAgent: CHROME,
  accessToken: 'tok en',
  baseUrl: '/',
};

describe('desktop icon (spec §2)', () => {
  it.each([
    ['several systems', { systemCount: 2 }, { kind: 'home' }],
    ['several systems, even without go_screen', { systemCount: 3, canGoScreen: false }, { kind: 'home' }],
    ['one system, screen on, go_screen', {}, { kind: 'screen', url: '/screen/index.html' }],
    ['screen setting off', { bigScreen: false }, { kind: 'none' }],
    ['no go_screen permission', { canGoScreen: false }, { kind: 'none' }],
    [
      'in DingTalk: ddtab flag and the access token',
      { userAgent: DINGTALK },
      { kind: 'screen', url: '/screen/index.html?ddtab=true&token=tok%20en' },
    ],
    ['under a base path', { baseUrl: '/ops' }, { kind: 'screen', url: '/ops/screen/index.html' }],
  ])('%s', (_label, override, expected) => {
    expect(desktopActionOf({ ...base, ...override })).toEqual(expected);
  });

  it('recognises the workplace-chat browser by its user agent', () => {
    expect(isWorkplaceChatBrowser(DINGTALK)).toBe(true);
    expect(isWorkplaceChatBrowser(CHROME)).toBe(false);
  });

  it('passes no token when there is none', () => {
    expect(bigScreenUrl('/', true, undefined)).toBe('/screen/index.html');
  });
});
