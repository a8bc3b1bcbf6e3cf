import { sessionStore } from '../../../request';
import { stubApi } from '../../../test/fakeApi';
import { fakeStomp } from '../../../test/fakeStomp';
import { waitFor } from '../../../test/render';
import { renderInApp } from '../../../test/renderInApp';
import { PileMonitorPage, linkedGunStatus } from './PileMonitorPage';

describe('pile monitor page', () => {
  beforeEach(() => sessionStore.set({ accessToken: 'token-1', expires: Date.now() + 60_000 }));
  afterEach(() => sessionStore.clear());

  it('takes a gun status from the address only when it is one', () => {
    expect(linkedGunStatus(new URLSearchParams('gunStatus=fault'))).toBe('fault');
    expect(linkedGunStatus(new URLSearchParams('gunStatus=charging'))).toBe('charging');
    expect(linkedGunStatus(new URLSearchParams('gunStatus=<b>'))).toBeUndefined();
    expect(linkedGunStatus(new URLSearchParams(''))).toBeUndefined();
  });

  it('opened from the home page with ?gunStatus=fault, asks for the faulted piles only', async () => {
    fakeStomp();
    const { calls } = stubApi({
      'GET /api/monitor/pile/page/1/size/10': () => ({ list: [], total: 0 }),
      'GET /api/monitor/pile/stations': () => [],
      'GET /api/dict/type/gun_status': () => [],
    });
    const { unmount } = await renderInApp(<PileMonitorPage />, {
      url: '/operation/pileMonitor?gunStatus=fault',
    });
    await waitFor(
      () => expect(calls.some((c) => c.path.startsWith('/api/monitor/pile/page/'))).toBe(true),
      30_000,
    );
    const read = calls.find((c) => c.path.startsWith('/api/monitor/pile/page/'));
    expect(read?.query.get('gunStatus')).toBe('fault');
    unmount();
  }, 90_000);
});
