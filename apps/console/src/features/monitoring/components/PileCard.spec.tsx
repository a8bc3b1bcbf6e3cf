import { act } from 'react';
import { stubApi } from '../../../test/fakeApi';
import { waitFor } from '../../../test/render';
import { renderInApp } from '../../../test/renderInApp';
import { aGun, aPile } from '../../../test/fixtures';
import { PileCard } from './PileCard';

const NOW = Date.parse('2025-03-01T09:30:00.000Z');
const charging = aPile({
  guns: [
    aGun({
      status: 'charging',
      ocppStatus: 'Charging',
      since: '2025-03-01T09:00:00.000Z',
      transactionId: 77,
      idTag: 'BUS0001',
      powerW: 118_000,
      energyWh: 20_500,
      soc: 24.5,
      vehicle: { id: 9, plate: '皖A·D1201', selfNumber: '1201' },
    }),
    aGun({
      gunId: 12,
      name: 'Gun 2',
      connectorId: 2,
      status: 'fault',
      ocppStatus: 'Faulted',
      errorCode: 'GroundFailure',
    }),
  ],
});

const card = (container: HTMLElement, connector: number) =>
  container.querySelector<HTMLElement>(`[data-testid="gun-card-CP-1-${connector}"]`)!;

describe('pile card', () => {
  it('shows each gun with its status, since when, power, energy, SoC and vehicle', async () => {
    const { container, unmount } = await renderInApp(<PileCard pile={charging} now={NOW} />);
    const gun1 = card(container, 1);
    expect(gun1.dataset['status']).toBe('charging');
    expect(gun1.querySelector('[data-testid="gun-status"]')?.textContent).toBe('Charging');
    expect(gun1.querySelector('[data-testid="gun-since"]')?.textContent).toBe('30m');
    expect(gun1.querySelector('[data-testid="gun-power"]')?.textContent).toBe('118.0 kW');
    expect(gun1.querySelector('[data-testid="gun-energy"]')?.textContent).toBe('20.50 kWh');
    expect(gun1.querySelector('[data-testid="gun-soc"]')?.textContent).toContain('24.5%');
    expect(gun1.querySelector('[data-testid="gun-vehicle"]')?.textContent).toBe('皖A·D1201');
    const gun2 = card(container, 2);
    expect(gun2.dataset['status']).toBe('fault');
    expect(gun2.textContent).toContain('Ground failure'); // the OCPP error code GroundFailure, labelled
    expect(gun2.textContent).not.toContain('GroundFailure');
    expect(gun2.querySelector('[data-testid="gun-power"]')?.textContent).toBe('-');
    unmount();
  });

  it('shows the command buttons only to users who may command piles', async () => {
    const allowed = await renderInApp(<PileCard pile={charging} now={NOW} />);
    expect(allowed.container.querySelector('[data-testid="cmd-start"]')).not.toBeNull();
    expect(allowed.container.querySelectorAll('[data-testid="cmd-stop"]')).toHaveLength(2);
    allowed.unmount();
    const viewer = await renderInApp(<PileCard pile={charging} now={NOW} />, {
      permissions: ['operation:stationMonitor'],
    });
    expect(viewer.container.querySelector('[data-testid="cmd-start"]')).toBeNull();
    expect(viewer.container.querySelector('[data-testid="cmd-stop"]')).toBeNull();
    viewer.unmount();
  });

  it('stops a charging gun after confirmation and shows what the pile answered', async () => {
    const { calls } = stubApi({
      'POST /api/monitor/pile/CP-1/command/RemoteStopTransaction': () => ({
        status: 'completed',
        response: { status: 'Accepted' },
      }),
    });
    const { container, unmount } = await renderInApp(<PileCard pile={charging} now={NOW} />);
    const stop = card(container, 1).querySelector<HTMLButtonElement>('[data-testid="cmd-stop"]')!;
    expect(card(container, 2).querySelector<HTMLButtonElement>('[data-testid="cmd-stop"]')!.disabled).toBe(
      true,
    );
    await act(async () => stop.click());
    const confirm = await waitForElement('.ant-popconfirm .ant-btn-primary');
    await act(async () => confirm.click());
    await waitFor(() => expect(document.body.textContent).toContain('The pile answered: Accepted'));
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([{ transactionId: 77 }]);
    unmount();
  });

  it('shows the fault and what the pile answered in Chinese, never the OCPP codes', async () => {
    stubApi({
      'POST /api/monitor/pile/CP-1/command/RemoteStopTransaction': () => ({
        status: 'completed',
        response: { status: 'Rejected' },
      }),
    });
    const { container, unmount } = await renderInApp(<PileCard pile={charging} now={NOW} />, {
      locale: 'zh-CN',
    });
    expect(card(container, 2).textContent).toContain('接地故障');
    await act(async () =>
      card(container, 1).querySelector<HTMLButtonElement>('[data-testid="cmd-stop"]')!.click(),
    );
    const confirm = await waitForElement('.ant-popconfirm .ant-btn-primary');
    await act(async () => confirm.click());
    await waitFor(() => expect(document.body.textContent).toContain('充电桩应答：已拒绝'));
    expect(document.body.textContent).not.toContain('Rejected');
    unmount();
  });

  it('greys the commands of an offline pile', async () => {
    const { container, unmount } = await renderInApp(<PileCard pile={aPile({ online: false })} now={NOW} />);
    expect(container.querySelector<HTMLButtonElement>('[data-testid="cmd-start"]')!.disabled).toBe(true);
    expect(container.querySelector('[data-testid="pile-card-CP-1"]')?.getAttribute('data-online')).toBe(
      'false',
    );
    unmount();
  });
});

async function waitForElement(selector: string): Promise<HTMLElement> {
  let found: HTMLElement | null = null;
  await waitFor(() => {
    found = document.querySelector<HTMLElement>(selector);
    expect(found).not.toBeNull();
  });
  return found!;
}
