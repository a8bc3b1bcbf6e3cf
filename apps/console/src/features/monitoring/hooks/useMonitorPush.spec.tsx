import type { MonitorPush } from '@voltdepot/shared-contracts';
import { act } from 'react';
import { sessionStore } from '../../../request';
import { renderInApp } from '../../../test/renderInApp';
import { aPile } from '../../../test/fixtures';
import { fakeStomp } from '../../../test/fakeStomp';
import { useMonitorPush } from './useMonitorPush';

function Probe(props: { ids: number[]; pushes: MonitorPush[]; resyncs: { count: number } }) {
  const connected = useMonitorPush(props.ids, {
    onPush: (push) => props.pushes.push(push),
    onResync: () => props.resyncs.count++,
  });
  return <span data-testid="connected">{String(connected)}</span>;
}

describe('monitoring push', () => {
  beforeEach(() => sessionStore.set({ accessToken: 'token-1', expires: Date.now() + 60_000 }));
  afterEach(() => sessionStore.clear());

  it("subscribes to each station's topic with the access token and hands over the changes", async () => {
    const stomp = fakeStomp();
    const pushes: MonitorPush[] = [];
    const resyncs = { count: 0 };
    const { container, unmount } = await renderInApp(
      <Probe ids={[7, 3, 7]} pushes={pushes} resyncs={resyncs} />,
    );
    expect(stomp.configs).toHaveLength(1);
    expect(stomp.configs[0].connectHeaders).toEqual({ Authorization: 'Bearer token-1' });
    expect(String(stomp.configs[0].brokerURL)).toMatch(/^ws:\/\/.+\/ms\/ws$/);
    await act(async () => stomp.connect());
    expect(stomp.subscriptions.map((s) => s.destination)).toEqual([
      '/topic/monitor/station/3',
      '/topic/monitor/station/7',
    ]);
    expect(container.textContent).toBe('true');
    // The last SUBSCRIBE asks for a receipt; once it came, the screen reads again what changed meanwhile.
    expect(stomp.subscriptions.map((s) => s.headers['receipt'] !== undefined)).toEqual([false, true]);
    expect(resyncs.count).toBe(1);

    const push: MonitorPush = { stationId: 3, at: '2025-03-01T09:00:00.000Z', piles: [aPile()] };
    stomp.subscriptions[0].deliver(JSON.stringify(push));
    stomp.subscriptions[0].deliver('not json');
    stomp.subscriptions[0].deliver(JSON.stringify({ hello: 'world' }));
    expect(pushes).toEqual([push]);

    // A reconnection re-subscribes and asks the screen to read again what it may have missed.
    await act(async () => stomp.connect());
    expect(resyncs.count).toBe(2);
    unmount();
    expect(stomp.deactivated).toBe(1);
  });

  it('opens no connection without stations or without a session', async () => {
    const stomp = fakeStomp();
    const none = await renderInApp(<Probe ids={[]} pushes={[]} resyncs={{ count: 0 }} />);
    expect(stomp.configs).toHaveLength(0);
    none.unmount();
    sessionStore.clear();
    const signedOut = await renderInApp(<Probe ids={[1]} pushes={[]} resyncs={{ count: 0 }} />);
    expect(stomp.configs).toHaveLength(0);
    signedOut.unmount();
  });
});
