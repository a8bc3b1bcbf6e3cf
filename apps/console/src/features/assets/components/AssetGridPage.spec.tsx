import { sessionStore } from '../../../request';
import { stubApi } from '../../../test/fakeApi';
import { waitFor } from '../../../test/render';
import { renderInApp } from '../../../test/renderInApp';
import { alarmCodeGrid, stopCodeGrid } from '../grids/referenceGrids';
import { AssetGridPage } from './AssetGridPage';

describe('asset grid page', () => {
  beforeEach(() => sessionStore.set({ accessToken: 'token-1', expires: Date.now() + 60_000 }));
  afterEach(() => sessionStore.clear());

  it.each([
    ['alarm codes', alarmCodeGrid, 'alarmCode', 'OverVoltage'],
    ['stop codes', stopCodeGrid, 'stopCode', 'PowerLoss'],
  ])(
    'shows the %s themselves as written (data-raw-text), the names as labels',
    async (_name, config, kind, code) => {
      stubApi({
        [`GET /api/${kind}/page/1/size/10`]: () => ({
          list: [
            { id: 1, protocol: 'ocpp16', code, name: '过压', normal: false, level: 1, category: 'general' },
          ],
          total: 1,
        }),
      });
      const { container, unmount } = await renderInApp(<AssetGridPage config={config} />, {
        locale: 'zh-CN',
      });
      await waitFor(() => expect(container.querySelector('tr[data-row-key]')).not.toBeNull(), 30_000);
      const raw = [...container.querySelectorAll('tr[data-row-key] [data-raw-text]')].map(
        (el) => el.textContent,
      );
      expect(raw).toEqual([code]);
      expect(container.querySelector('tr[data-row-key]')?.textContent).toContain('过压');
      unmount();
    },
    90_000,
  );
});
