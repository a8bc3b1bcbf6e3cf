import { fireEvent } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../../../test/fakeApi';
import { waitFor } from '../../../test/render';
import { renderInApp } from '../../../test/renderInApp';
import type { PlatformConfigRow } from '../api/adminApi';
import { PlatformSettingsPage } from './PlatformSettingsPage';

const row = (configKey: string, configValue: string): PlatformConfigRow => ({
  configKey,
  configValue,
  category: 'platform',
  isPublic: true,
  builtin: true,
  description: null,
  updatedBy: null,
  updatedAt: '2025-03-01T08:00:00.000Z',
});

const ROWS = [
  row('systemName', 'menu.system.name'),
  row('systemTitle', 'Voltdepot Charging Operations'),
  row('logo', '/logo.svg'),
  row('logoTitleMode', '1'),
  row('noticeIcon', '1'),
  row('bigScreen', '1'),
  row('cityCode', 'fz'),
  row('systemList', '[]'),
];

describe('platform settings page', () => {
  it('saves the changed settings in one batch request (all or none), never key by key', async () => {
    const api = stubApi({
      'GET /api/platformConfig/page/1/size/100': () => ({ list: ROWS, total: ROWS.length }),
      'PUT /api/platformConfig': (req) =>
        (req.body as { items: { configKey: string; configValue: string }[] }).items.map((i) =>
          row(i.configKey, i.configValue),
        ),
    });
    await renderInApp(<PlatformSettingsPage />, {
      permissions: ['sys:config', 'sys:config:query', 'sys:config:edit'],
    });
    await waitFor(() =>
      expect(document.querySelector('[data-testid="platform-systemTitle"]')).not.toBeNull(),
    );
    const title = document.querySelector('[data-testid="platform-systemTitle"]') as HTMLInputElement;
    fireEvent.change(title, { target: { value: 'Depot operations' } });
    const switches = document.querySelectorAll('button[role="switch"]');
    fireEvent.click(switches[1]); // big screen off
    fireEvent.click(document.querySelector('[data-testid="platform-save"]') as HTMLElement);
    await waitFor(() =>
      expect(api.calls.filter((c) => c.method === 'PUT').map((c) => [c.path, c.body])).toEqual([
        [
          '/api/platformConfig',
          {
            items: [
              { configKey: 'systemTitle', configValue: 'Depot operations' },
              { configKey: 'bigScreen', configValue: '0' },
            ],
          },
        ],
      ]),
    );
  }, 60_000);
});

describe('platform settings page labels', () => {
  const dictItem = (code: string, value: string, name: string) => ({
    id: 1,
    parentId: 1,
    kind: 'item' as const,
    code,
    name,
    value,
    sort: 0,
    enabled: true,
    children: [],
  });
  // The seeded dictionaries name their items in English; the options must not show those names in zh-CN.
  const open = async (locale: 'zh-CN' | 'en-US') => {
    stubApi({
      'GET /api/platformConfig/page/1/size/100': () => ({ list: ROWS, total: ROWS.length }),
      'GET /api/dict/type/logo_title_mode': () => [
        dictItem('both', '1', 'Logo and title'),
        dictItem('title', '2', 'Title only'),
        dictItem('logo', '3', 'Logo only'),
      ],
      'GET /api/dict/type/city_code': () => [
        dictItem('fz', 'fz', 'Fuzhou'),
        dictItem('hefei', 'hefei', 'Hefei'),
        dictItem('tm166', 'tm166', 'tm166'),
      ],
    });
    await renderInApp(<PlatformSettingsPage />, { locale, permissions: ['sys:config', 'sys:config:query'] });
    await waitFor(() =>
      expect(document.body.textContent).toContain(locale === 'zh-CN' ? '仅标题' : 'Title only'),
    );
  };
  const text = () => document.body.textContent ?? '';

  it('shows the logo-title options and the city in Chinese, and what the system name key shows as', async () => {
    await open('zh-CN');
    expect(text()).toContain('Logo 与标题');
    expect(text()).toContain('仅 Logo');
    expect(text()).not.toContain('Title only');
    expect(text()).toContain('福州 (fz)');
    expect(text()).not.toContain('Fuzhou');
    expect(document.querySelector('[data-testid="platform-systemName-shown"]')?.textContent).toBe(
      '显示为：Voltdepot 充电运营平台',
    );
  }, 60_000);

  it('shows them in English', async () => {
    await open('en-US');
    expect(text()).toContain('Logo only');
    expect(text()).toContain('Fuzhou (fz)');
    expect(document.querySelector('[data-testid="platform-systemName-shown"]')?.textContent).toBe(
      'Shown as: Voltdepot Charging Operations',
    );
  }, 60_000);
});
