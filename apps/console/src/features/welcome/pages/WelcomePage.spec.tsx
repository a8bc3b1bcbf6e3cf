import { describe, expect, it } from 'vitest';
import { waitFor } from '../../../test/render';
import { renderInApp } from '../../../test/renderInApp';
import { WelcomePage } from './WelcomePage';

const links = () =>
  [...document.querySelectorAll<HTMLAnchorElement>('[data-testid^="welcome-link-"]')].map((a) => [
    a.dataset['testid']!.replace('welcome-link-', ''),
    a.getAttribute('href'),
  ]);

describe('WelcomePage', () => {
  it('links the screens the user may open, and the home page', async () => {
    await renderInApp(<WelcomePage />, {
      permissions: ['welcome', 'operation:stationMonitor', 'operation:orderManage:orderQuery', 'sys:user'],
    });
    await waitFor(() => expect(document.body.textContent).toContain('Where to start'));
    expect(links()).toEqual([
      ['stationMonitor', '/operation/stationMonitor'],
      ['orderQuery', '/operation/orderManage/orderQuery'],
      ['users', '/sys/user'],
    ]);
    expect(document.querySelector('[data-testid="welcome-home"]')?.getAttribute('href')).toBe('/home');
    expect(document.body.textContent).toContain('Station monitoring');
    // Screens the console does not have are not advertised.
    expect(document.body.textContent).not.toMatch(/dispatch|work orders|reconciliation|appear/i);
  });

  it('tells a user whose role opens none of them whom to ask, in zh-CN too', async () => {
    await renderInApp(<WelcomePage />, { permissions: ['welcome'], locale: 'zh-CN' });
    await waitFor(() => expect(document.body.textContent).toContain('常用功能'));
    expect(links()).toEqual([]);
    expect(document.body.textContent).toContain('请联系管理员分配权限');
    expect(document.body.textContent).not.toMatch(/调度|工单|对账|会出现/);
  });
});
