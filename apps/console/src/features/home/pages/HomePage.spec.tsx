import { afterEach, describe, expect, it } from 'vitest';
import { sessionStore } from '../../../request';
import { demoMenus, demoOverview, signedInApi, stubApi } from '../../../test/fakeApi';
import { waitFor } from '../../../test/render';
import { renderConsole } from '../../../test/renderConsole';

const SCREENS = ['operation:stationMonitor', 'operation:pileMonitor', 'operation:orderManage:orderQuery'];
const BASE = ['global', 'home', 'welcome'];

let unmount: (() => void) | undefined;
afterEach(() => {
  unmount?.();
  unmount = undefined;
  sessionStore.clear();
  document.body.innerHTML = '';
});

async function home(permissions: string[], options: Parameters<typeof renderConsole>[1] = {}) {
  const api = stubApi(signedInApi(permissions, demoMenus()));
  const rendered = await renderConsole('/home', options);
  unmount = rendered.unmount;
  return { ...rendered, calls: api.calls };
}

const figure = (key: string) => document.querySelector(`[data-testid="home-figure-${key}"]`);
const link = (key: string) => document.querySelector<HTMLAnchorElement>(`[data-testid="home-link-${key}"]`);

describe('HomePage', () => {
  it("shows today's figures of the scope, kWh from Wh and yuan from fen, each linking to its screen", async () => {
    await home([...BASE, ...SCREENS]);
    await waitFor(() => expect(figure('stations')).not.toBeNull());
    expect(document.querySelector('[data-testid="home-figures"]')?.textContent).toContain(
      'Today (2026-11-22)',
    );
    expect(figure('stations')?.textContent).toContain('Stations online / total3 / 4');
    expect(figure('guns')?.textContent).toContain('Guns online / total7 / 9');
    expect(figure('charging')?.textContent).toContain('Guns charging now2');
    expect(figure('energy')?.textContent).toContain('Energy today (kWh)412.345');
    expect(figure('revenue')?.textContent).toContain('Revenue today (yuan)301.99');
    expect(figure('faults')?.textContent).toContain('Open faults1');
    expect(figure('faults')?.textContent).toContain('1 faulted guns on 1 piles');

    expect(link('stations')?.getAttribute('href')).toBe('/operation/stationMonitor');
    expect(link('guns')?.getAttribute('href')).toBe('/operation/pileMonitor');
    expect(link('charging')?.getAttribute('href')).toBe('/operation/pileMonitor?gunStatus=charging');
    expect(link('faults')?.getAttribute('href')).toBe('/operation/pileMonitor?gunStatus=fault');
    // Energy and revenue open the order query over the business day, to its last second.
    for (const key of ['energy', 'revenue']) {
      const href = new URL(link(key)!.getAttribute('href')!, 'http://console.test');
      expect(href.pathname).toBe('/operation/orderManage/orderQuery');
      expect(href.searchParams.get('start')).toBe('2026-11-21T16:00:00.000Z');
      expect(href.searchParams.get('end')).toBe('2026-11-22T15:59:59.000Z');
    }
    // The page still greets the user, and says nothing of screens still to come.
    expect(document.body.textContent).toContain('Hello, Administrator');
    expect(document.body.textContent).not.toMatch(/appear|as they are built/i);
  });

  it('hides the links to screens the user may not open', async () => {
    await home([...BASE, 'operation:pileMonitor']);
    await waitFor(() => expect(figure('energy')).not.toBeNull());
    expect(figure('energy')?.textContent).toContain('412.345');
    expect(link('guns')).not.toBeNull();
    expect(link('faults')).not.toBeNull();
    for (const key of ['stations', 'energy', 'revenue']) expect(link(key)).toBeNull();
  });

  it('shows no figures and asks for none without the home resource', async () => {
    const { calls } = await home(['global', 'welcome', ...SCREENS]);
    await waitFor(() => expect(document.body.textContent).toContain('Hello, Administrator'));
    expect(document.querySelector('[data-testid="home-figures"]')).toBeNull();
    expect(calls.some((c) => c.path === '/api/overview/today')).toBe(false);
  });

  it('speaks zh-CN, without promises of future screens', async () => {
    stubApi(
      signedInApi([...BASE, ...SCREENS], demoMenus(), {
        'GET /api/overview/today': () => demoOverview({ orders: { count: 1, energyWh: 5, revenueFen: 7 } }),
      }),
    );
    const rendered = await renderConsole('/home', { locale: 'zh-CN' });
    unmount = rendered.unmount;
    await waitFor(() => expect(figure('energy')).not.toBeNull());
    expect(figure('energy')?.textContent).toContain('今日充电量（kWh）0.005');
    expect(figure('revenue')?.textContent).toContain('今日收入（元）0.07');
    expect(document.body.textContent).toContain('今日概况（2026-11-22）');
    expect(document.body.textContent).toContain('角色管理员'); // the built-in role in Chinese, not 'Administrator'
    expect(document.body.textContent).not.toContain('会出现');
    expect(document.body.textContent).not.toContain('完成后');
  });
});
