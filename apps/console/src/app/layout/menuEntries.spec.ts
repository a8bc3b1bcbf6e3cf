// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { demoMenus, resource } from '../../test/fakeApi';
import { buildMenuEntries, groupKeysAbove, menuLabelKey } from './menuEntries';

const pages = ['/home', '/welcome', '/sys/log'];
const isPage = (path: string) => pages.includes(path);
const label = (node: { code: string }) => node.code;

describe('menu entries', () => {
  it('keeps the resources that have a page, in order; hidden ones and empty groups go', () => {
    expect(buildMenuEntries(demoMenus(), isPage, label)).toEqual([
      { key: '/home', code: 'home', label: 'home', path: '/home' },
      { key: '/welcome', code: 'welcome', label: 'welcome', path: '/welcome' },
      {
        key: 'group:sys',
        code: 'sys',
        label: 'sys',
        children: [{ key: '/sys/log', code: 'sys:log', label: 'sys:log', path: '/sys/log' }],
      },
    ]);
  });

  it('shows nothing of an area the user does not hold', () => {
    const entries = buildMenuEntries(demoMenus({ logs: false }), isPage, label);
    expect(entries.map((entry) => entry.key)).toEqual(['/home', '/welcome']);
  });

  it('never shows buttons', () => {
    const menus = [resource('global', null, [resource('go_screen', null, [], { type: 'button' })])];
    expect(buildMenuEntries(menus, () => true, label)).toEqual([]);
  });

  it('finds the groups to open for a page', () => {
    const entries = buildMenuEntries(demoMenus(), isPage, label);
    expect(groupKeysAbove(entries, '/sys/log')).toEqual(['group:sys']);
    expect(groupKeysAbove(entries, '/home')).toEqual([]);
    expect(groupKeysAbove(entries, '/nowhere')).toEqual([]);
  });

  it.each([
    ['home', 'menu.home'],
    ['sys:log', 'menu.sys_log'],
    ['appManage:reconciliation:depositRefundDetail', 'menu.appManage_reconciliation_depositRefundDetail'],
  ])('label key of %s is %s', (code, key) => {
    expect(menuLabelKey(code)).toBe(key);
  });
});
