import { fireEvent } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { stubApi } from '../../../test/fakeApi';
import { waitFor } from '../../../test/render';
import { renderInApp } from '../../../test/renderInApp';
import { UnknownPilesTable } from './UnknownPilesTable';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

async function show(permissions: string[]) {
  const api = stubApi({
    'GET /api/pile/unknown/page/1/size/10': () => ({
      list: [
        {
          chargePointId: 'CP-STRAY-1',
          remoteAddresses: ['10.0.0.7', '10.0.0.8'],
          attempts: 4,
          firstSeenAt: '2025-03-01T00:00:00.000Z',
          lastSeenAt: '2025-03-01T02:00:00.000Z',
        },
      ],
      total: 1,
    }),
    'GET /api/pile/unknown/export': () =>
      new Response(new Uint8Array([0x50, 0x4b, 3, 4]), {
        status: 200,
        headers: {
          'content-type': XLSX,
          'content-disposition': 'attachment; filename="unknown.xlsx"; filename*=UTF-8\'\'unknown.xlsx',
        },
      }),
  });
  await renderInApp(<UnknownPilesTable />, { permissions });
  await waitFor(() => expect(document.body.textContent).toContain('CP-STRAY-1'));
  return api;
}

describe('unknown piles list', () => {
  it('lists the refused charge points (ProTable) and exports them as xlsx in the console language', async () => {
    URL.createObjectURL = vi.fn(() => 'blob:unknown');
    URL.revokeObjectURL = vi.fn();
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const api = await show(['basic:host:unknown', 'basic:host:unknown:export', 'basic:host:add']);
    expect(document.body.textContent).toContain('10.0.0.7, 10.0.0.8');
    expect(document.querySelector('[data-testid="register-CP-STRAY-1"]')).not.toBeNull();
    fireEvent.click(document.querySelector('[data-testid="export-unknown-piles"]') as HTMLElement);
    await waitFor(() => expect(URL.createObjectURL).toHaveBeenCalled());
    const call = api.calls.find((c) => c.path === '/api/pile/unknown/export')!;
    expect(call.query.get('lang')).toBe('en-US');
  }, 60_000);

  it('without the export button permission there is no export (nor register without basic:host:add)', async () => {
    await show(['basic:host:unknown']);
    expect(document.querySelector('[data-testid="export-unknown-piles"]')).toBeNull();
    expect(document.querySelector('[data-testid="register-CP-STRAY-1"]')).toBeNull();
  }, 60_000);
});
