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
