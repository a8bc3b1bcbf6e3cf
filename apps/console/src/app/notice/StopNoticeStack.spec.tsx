import { act, fireEvent } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { signedInApi, stubApi } from '../../test/fakeApi';
import { installFakeSpeech, type FakeSpeech } from '../../test/fakeSpeech';
import { fakeStomp, type FakeStomp } from '../../test/fakeStomp';
import { waitFor } from '../../test/render';
import { renderConsole } from '../../test/renderConsole';
import type { Locale } from '../../locales';

const STOP_TOPIC = '/user/topic/transRunStatusStop';

const stop = (n: number) => ({
  type: n % 5 === 0 ? 2 : 1,
  msg: `Pile CP-${n} gun 1 stopped`,
  date: '2026-03-01 08:00:00',
  key: `CP-${n}/7`,
});

let speech: FakeSpeech;
let restoreSpeech: () => void;
beforeEach(() => {
  ({ speech, restore: restoreSpeech } = installFakeSpeech());
});
afterEach(() => restoreSpeech());

async function setup(locale: Locale = 'en-US') {
  stubApi(
    signedInApi(undefined, undefined, {
      'GET /ms/m1/msg/inbox/unread': () => [],
      'GET /ms/m1/msg/inbox/page/1/size/10': () => ({ list: [], total: 0 }),
    }),
  );
  const stomp = fakeStomp();
  // Hefei subscribes to the stop notices after signing in (spec §4).
  await renderConsole('/home', { locale, platform: { noticeIcon: true, cityCode: 'hefei' } });
  await waitFor(() => expect(stomp.configs.length).toBeGreaterThan(0));
  await act(async () => stomp.connect());
  return stomp;
}

function push(stomp: FakeStomp, ...notices: object[]) {
  return act(async () => {
    for (const notice of notices) {
      stomp.subscriptions
        .filter((s) => s.destination === STOP_TOPIC)
        .forEach((s) => s.deliver(JSON.stringify(notice)));
    }
  });
}

const stack = () => document.querySelector<HTMLElement>('[data-testid="stop-notice-stack"]');
const shown = () => [...document.querySelectorAll('[data-testid="stop-notice"]')].map((n) => n.textContent);
const more = () => document.querySelector('[data-testid="stop-notice-more"]')?.textContent;
const said = () => speech.spoken.map((utterance) => utterance.text);
const button = (text: string) =>
  [...document.querySelectorAll('button')].find((b) => b.textContent === text) as HTMLButtonElement;

describe('realtime stop notices', () => {
  it.each([
    ['en-US', 'Pile DEPOT-A-03, gun 2 finished charging: Local stop at the pile, 97.280 kWh'],
    ['zh-CN', '充电桩DEPOT-A-03的2号枪充电正常结束，原因：充电桩本地停止，充电量97.280千瓦时'],
  ] as const)(
    'shows the text in the user language (%s) and reads the Chinese message aloud',
    async (locale, text) => {
      const stomp = await setup(locale);
      const msg = '充电桩DEPOT-A-03的2号枪充电正常结束，原因：充电桩本地停止，充电量97.28千瓦时';
      await push(stomp, {
        type: 1,
        msg,
        date: '2026-03-01 08:00:00',
        key: 'DEPOT-A-03/9',
        stop: {
          chargePointId: 'DEPOT-A-03',
          connectorId: 2,
          transactionId: 9,
          reason: 'Local',
          energyWh: 97_280,
        },
      });
      await waitFor(() => expect(shown()).toHaveLength(1));
      expect(shown()[0]).toContain(text);
      expect(said()).toEqual([msg.replace(/-/g, '')]);
    },
  );

  it('shows three of a flood of 60 and sums up the other 57; a dismissed one gives its slot to the next', async () => {
    const stomp = await setup();
    await push(stomp, ...Array.from({ length: 60 }, (_, i) => stop(i + 1)));

    await waitFor(() => expect(shown()).toHaveLength(3));
    expect(shown()[0]).toContain('Charging stopped normally');
    expect(shown()[0]).toContain('Pile CP-1 gun 1 stopped');
    expect(shown()[2]).toContain('Pile CP-3 gun 1 stopped');
    expect(more()).toBe('57 more charging stops');

    const dismissButtons = () =>
      document.querySelectorAll<HTMLElement>('[data-testid="stop-notice-dismiss"]');
    fireEvent.click(dismissButtons()[1] as HTMLElement);
    await waitFor(() => expect(more()).toBe('56 more charging stops'));
    expect(shown().map((text) => text?.match(/CP-\d+/)?.[0])).toEqual(['CP-1', 'CP-3', 'CP-4']);
    // The fifth is an abnormal stop.
    fireEvent.click(dismissButtons()[0] as HTMLElement);
    await waitFor(() => expect(shown()[2]).toContain('Charging stopped abnormally alarm'));

    // The waiting ones can be seen and dismissed one by one, or all at once.
    fireEvent.click(button('Show'));
    await waitFor(() =>
      expect(document.querySelectorAll('[data-testid="stop-notice-waiting-item"]')).toHaveLength(55),
    );
    fireEvent.click(button('Dismiss all'));
    await waitFor(() => expect(stack()).toBeNull());

    // Last, down to one waiting notice: the summary's singular.
    await push(stomp, stop(61), stop(62), stop(63), stop(64));
    await waitFor(() => expect(more()).toBe('1 more charging stop'));
  });

  it('sits in the bottom right corner, below the header and under antd popups', async () => {
    const stomp = await setup();
    await push(stomp, stop(1));
    await waitFor(() => expect(stack()).not.toBeNull());
    const style = (stack() as HTMLElement).style;
    expect(style.position).toBe('fixed');
    expect([style.bottom, style.right, style.top]).toEqual(['24px', '24px', '']);
    expect(Number(style.zIndex)).toBeLessThan(1000); // antd's popup base: modals, drawers, popovers, dropdowns
    expect(style.maxHeight).toBe('calc(100vh - 104px)');
    expect(document.querySelector('header')?.contains(stack())).toBe(false);
  });

  it('updates a notice in place when its order amount arrives, in yuan', async () => {
    const stomp = await setup();
    await push(stomp, stop(1));
    await waitFor(() => expect(shown()).toHaveLength(1));
    expect(document.querySelector('[data-testid="stop-notice-amount"]')).toBeNull();
    await push(stomp, { ...stop(1), amountFen: 123_456, orderHeld: false });
    await waitFor(() =>
      expect(document.querySelector('[data-testid="stop-notice-amount"]')?.textContent).toBe(
        'Order amount: 1234.56 yuan',
      ),
    );
    expect(shown()).toHaveLength(1);
    // A held order says so instead of an amount.
    await push(stomp, { ...stop(2), amountFen: 0, orderHeld: true });
    await waitFor(() => expect(shown()[1]).toContain('Order held for review'));
    // Dismissed, it does not come back for its amount.
    fireEvent.click(document.querySelector('[data-testid="stop-notice-dismiss"]') as HTMLElement);
    await push(stomp, { ...stop(1), amountFen: 1, orderHeld: false });
    await waitFor(() => expect(shown()).toHaveLength(1));
    expect(shown()[0]).toContain('CP-2');
  });

  it('reads the notices aloud one at a time, in order, skipping dismissed and flooded ones', async () => {
    const stomp = await setup();
    await push(stomp, stop(1), stop(2));
    await waitFor(() => expect(shown()).toHaveLength(2));
    expect(said()).toEqual(['Pile CP1 gun 1 stopped']);
    expect(speech.spoken[0]?.lang).toBe('zh-CN');

    act(() => speech.end());
    expect(said()).toEqual(['Pile CP1 gun 1 stopped', 'Pile CP2 gun 1 stopped']);

    // A flood: only the last three wait, and a dismissed one is not read.
    await push(stomp, ...Array.from({ length: 10 }, (_, i) => stop(i + 3)));
    fireEvent.click(button('Show'));
    const waitingItem = [...document.querySelectorAll('[data-testid="stop-notice-waiting-item"]')].find(
      (item) => item.textContent?.includes('CP-11 '),
    );
    fireEvent.click(waitingItem?.querySelector('[data-testid="stop-notice-dismiss"]') as HTMLElement);
    for (let i = 0; i < 3; i++) act(() => speech.end());
    expect(said().slice(2)).toEqual(['Pile CP10 gun 1 stopped', 'Pile CP12 gun 1 stopped']);
  });

  it('is not shown while a dialog is open, and comes back when it closes', async () => {
    const stomp = await setup();
    await push(stomp, stop(1));
    await waitFor(() => expect(shown()).toHaveLength(1));

    // The inbox dialog, from the bell's 'view more'.
    fireEvent.click(document.querySelector('button[aria-label="Notifications"]') as HTMLElement);
    await waitFor(() => expect(button('View more')).toBeDefined());
    fireEvent.click(button('View more'));
    await waitFor(() => expect(document.querySelector('.ant-modal')).not.toBeNull());
    await waitFor(() => expect(stack()).toBeNull());

    // Arriving meanwhile, they are held (and still read aloud), not drawn over the dialog.
    await push(stomp, ...Array.from({ length: 5 }, (_, i) => stop(i + 2)));
    expect(stack()).toBeNull();
    expect(document.querySelector('[data-testid="stop-notice"]')).toBeNull();

    fireEvent.click(document.querySelector('.ant-modal-close') as HTMLElement);
    await waitFor(() => expect(shown()).toHaveLength(3));
    expect(more()).toBe('3 more charging stops');
  });

  it('titles the notice in the user language; the message is read as pushed', async () => {
    const stomp = await setup('zh-CN');
    await push(stomp, ...Array.from({ length: 4 }, (_, i) => stop(i + 1)));
    await waitFor(() => expect(shown()).toHaveLength(3));
    expect(shown()[0]).toContain('充电正常停止');
    expect(more()).toBe('还有 1 条充电停止通知');
    expect(document.querySelector('[data-testid="stop-notice-dismiss"]')?.getAttribute('aria-label')).toBe(
      '关闭',
    );
  });
});
