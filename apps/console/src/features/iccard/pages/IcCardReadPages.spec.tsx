import { act, fireEvent } from '@testing-library/react';
import type {
  IcAccountView,
  IcCardDetail,
  IcCustomerView,
  IcGroupInfo,
  IcLedgerRecordView,
} from '@voltdepot/console-api-client';
import { describe, expect, it, vi } from 'vitest';
import { json, stubApi } from '../../../test/fakeApi';
import { waitFor } from '../../../test/render';
import { codesOf, renderInApp } from '../../../test/renderInApp';
import { ICCARD_PERMISSIONS } from '../permissions';
import { CardDetailPage } from './CardDetailPage';
import { GroupAccountsPage } from './GroupAccountsPage';
import { GroupInfoPage } from './GroupInfoPage';
import { RechargeRecordsPage } from './RechargeRecordsPage';

const permissions = codesOf(ICCARD_PERMISSIONS);
const text = () => document.body.textContent ?? '';
const byTestId = (id: string) => document.querySelector(`[data-testid="${id}"]`) as HTMLElement;
const click = (el: Element) => act(async () => fireEvent.click(el));

const record = (o: Partial<IcLedgerRecordView> = {}): IcLedgerRecordView => ({
  transactionId: 31,
  kind: 'recharge',
  accountId: 70,
  customerId: 7,
  customerName: 'Li Lei',
  cardNo: 'C0001',
  amountFen: 10050,
  arrearsChangeFen: 0,
  balanceBeforeFen: 1000,
  balanceAfterFen: 11050,
  reference: 'card:C0001',
  operatorId: 1,
  operatorName: 'alice',
  occurredAt: '2026-11-22T02:00:00.000Z', // 10:00:00 in the business time zone
  ...o,
});

const account = (o: Partial<IcAccountView> = {}): IcAccountView => ({
  accountId: 80,
  kind: 'group',
  customerId: 8,
  name: 'Depot Fleet',
  companyName: 'East Bus Co',
  balanceFen: 500000,
  arrearsFen: 0,
  frozen: false,
  consumedFen: 12345,
  rechargedFen: 600000,
  userCount: 1,
  contacts: 'Wang',
  contactInformation: '021-555',
  cardCount: 1,
  ...o,
});

const customer = (o: Partial<IcCustomerView> = {}): IcCustomerView => ({
  id: 7,
  organizationId: 1,
  clientType: 3,
  groupId: 8,
  userName: 'Li Lei',
  certificateType: 'idCard',
  certificateNumber: '110101199001011234',
  customerType: 'driver',
  phone: null,
  companyId: null,
  companyName: null,
  gender: 0,
  nation: null,
  address: null,
  identityVerified: true,
  accountId: 70,
  accountKind: 'group_sub',
  balanceFen: 11050,
  arrearsFen: 0,
  updatedAt: '2026-11-20T08:00:00.000Z',
  ...o,
});

describe('IC-card read pages', { timeout: 120_000 }, () => {
  it('recharge records: asks for recharges and refunds, shows labels, yuan, business time and the sum', async () => {
    const { calls } = stubApi({
      'GET /api/iccard/record/page/1/size/10': () => ({
        list: [record(), record({ transactionId: 32, kind: 'refund', amountFen: -500 })],
        total: 2,
        sumFen: 9550,
      }),
    });
    await renderInApp(<RechargeRecordsPage />, { permissions });
    await waitFor(() => expect(text()).toContain('Total (yuan): 95.50'));
    const first = calls.find((c) => c.path === '/api/iccard/record/page/1/size/10')!;
    expect(first.query.get('kind')).toBe('recharge,refund');
    expect(text()).toContain('100.50');
    expect(text()).toContain('-5.00');
    expect(text()).toContain('Refund');
    expect(text()).toContain('2026-11-22 10:00:00');
    expect(text()).not.toMatch(/\brecharge\b|iccard\./);
  });

  it('group accounts: allocates with one request id, sent again when OK is pressed again after no answer', async () => {
    const info: IcGroupInfo = {
      group: customer({ id: 8, clientType: 2, groupId: null, userName: 'Depot Fleet' }),
      account: account(),
      members: [
        {
          customerId: 7,
          userName: 'Li Lei',
          phone: null,
          accountId: 70,
          balanceFen: 0,
          arrearsFen: 0,
          consumedFen: 0,
          cards: [],
        },
      ],
    };
    let attempts = 0;
    const { calls } = stubApi({
      'GET /api/iccard/account/page/1/size/10': () => ({ list: [account()], total: 1 }),
      'GET /api/iccard/company/page/1/size/500': () => ({ list: [], total: 0 }),
      'GET /api/iccard/group/8': () => info,
      'POST /api/iccard/group/8/allocate': () => {
        attempts += 1;
        return attempts === 1
          ? json({ code: 'SERVICE_UNAVAILABLE', message: 'busy', correlationId: 'c' }, 503)
          : { groupBalanceFen: 490000, memberBalanceFen: 10000, replayed: false };
      },
    });
    await renderInApp(<GroupAccountsPage />, { permissions });
    await waitFor(() => expect(text()).toContain('Depot Fleet'));
    expect(calls.find((c) => c.path === '/api/iccard/account/page/1/size/10')!.query.get('kind')).toBe(
      'group',
    );
    const link = [...document.querySelectorAll('a')].find((a) => a.textContent === 'Depot Fleet');
    expect(link?.getAttribute('href')).toBe('/iccard/group_basic_info?id=8');

    await click(byTestId('group-allocate-8'));
    await waitFor(() => expect(text()).toContain('Group balance (yuan): 5000.00'));
    await click(byTestId('transfer-ok'));
    await waitFor(() =>
      expect(
        [...document.querySelectorAll('.ant-form-item-explain-error')].map((e) => e.textContent),
      ).toEqual(['Choose the group user', 'Account balance is required']),
    );
    const select =
      byTestId('transfer-member').querySelector('.ant-select-selector') ?? byTestId('transfer-member');
    await act(async () => fireEvent.mouseDown(select));
    await waitFor(() => expect(document.querySelector('.ant-select-item-option')).not.toBeNull());
    await click(document.querySelector('.ant-select-item-option')!);
    await act(async () => fireEvent.change(byTestId('transfer-amount'), { target: { value: '100' } }));
    await click(byTestId('transfer-ok'));
    await waitFor(() => expect(attempts).toBe(1));
    await click(byTestId('transfer-ok'));
    await waitFor(() => expect(attempts).toBe(2));
    const bodies = calls.filter((c) => c.method === 'POST').map((c) => c.body as Record<string, unknown>);
    expect(bodies[0]).toEqual({ requestId: expect.any(String), memberId: 7, amount: '100' });
    expect(bodies[1]).toEqual(bodies[0]);
  });

  it('group basic info: the group, its account and its users with their balances and cards', async () => {
    stubApi({
      'GET /api/iccard/group/8': () => ({
        group: customer({
          id: 8,
          clientType: 2,
          groupId: null,
          userName: 'Depot Fleet',
          companyName: 'East Bus Co',
        }),
        account: account(),
        members: [
          {
            customerId: 7,
            userName: 'Li Lei',
            phone: '139',
            accountId: 70,
            balanceFen: 11050,
            arrearsFen: 0,
            consumedFen: 300,
            cards: [{ cardNo: 'C0001', chip: 'CPU', status: 'lost' }],
          },
        ],
      }),
    });
    await renderInApp(<GroupInfoPage />, { permissions, url: '/iccard/group_basic_info?id=8' });
    await waitFor(() => expect(text()).toContain('Li Lei'));
    expect(text()).toContain('Depot Fleet');
    expect(text()).toContain('5000.00');
    expect(text()).toContain('110.50');
    expect(text()).toContain('Reported lost');
    const link = [...document.querySelectorAll('a')].find((a) => a.textContent === 'C0001');
    expect(link?.getAttribute('href')).toBe('/report/components/icCard?cardNo=C0001');
  });

  it('card detail: the card, its holder, the account, records and actions, in Chinese labels', async () => {
    const detail: IcCardDetail = {
      card: {
        id: 1,
        cardNo: 'C0001',
        chip: 'M1',
        cardType: 0,
        status: 'normal',
        customerId: 7,
        customerName: 'Li Lei',
        accountId: 70,
        balanceFen: 11050,
        issuedAt: '2026-11-20T08:00:00.000Z',
        updatedAt: '2026-11-20T08:00:00.000Z',
      },
      customer: customer(),
      account: account({ kind: 'group_sub', accountId: 70, balanceFen: 11050 }),
      actions: [
        {
          id: 9,
          cardNo: 'C0001',
          customerName: 'Li Lei',
          action: 'refundWithCard',
          statusBefore: 'normal',
          statusAfter: 'normal',
          notes: ['askLogout'],
          amountFen: -500,
          balanceBeforeFen: 11550,
          balanceAfterFen: 11050,
          operatorId: 1,
          occurredAt: '2026-11-22T03:00:00.000Z',
        },
      ],
      records: [record()],
    };
    URL.createObjectURL = vi.fn(() => 'blob:x');
    URL.revokeObjectURL = vi.fn();
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const sheet = () =>
      new Response(new Uint8Array([0x50, 0x4b, 0x03, 0x04]), {
        status: 200,
        headers: {
          'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
          'content-disposition': `attachment; filename="x.xlsx"`,
        },
      });
    const { calls } = stubApi({
      'GET /api/iccard/card/C0001/detail': () => detail,
      'GET /api/iccard/record/export/xlsx': sheet,
      'GET /api/iccard/action/export/xlsx': sheet,
    });
    await renderInApp(<CardDetailPage />, {
      permissions,
      url: '/report/components/icCard?cardNo=C0001',
      locale: 'zh-CN',
    });
    await waitFor(() => expect(text()).toContain('有卡退款'));
    expect(text()).toContain('M1 卡');
    expect(text()).toContain('司机卡');
    expect(text()).toContain('集团子账户');
    expect(text()).toContain('退款成功，是否注销该卡？');
    expect(text()).toContain('身份证');
    expect(text()).toContain('2026-11-22 11:00:00');
    expect(text()).not.toMatch(/refundWithCard|askLogout|group_sub|iccard\./);

    // Both lists export: the account's records, the card's actions.
    await act(async () =>
      fireEvent.click(document.querySelector('[data-testid="card-detail-records-export"]')!),
    );
    await waitFor(() => expect(calls.some((c) => c.path === '/api/iccard/record/export/xlsx')).toBe(true));
    expect(calls.find((c) => c.path === '/api/iccard/record/export/xlsx')!.query.get('accountId')).toBe('70');
    await act(async () =>
      fireEvent.click(document.querySelector('[data-testid="card-detail-actions-export"]')!),
    );
    await waitFor(() => expect(calls.some((c) => c.path === '/api/iccard/action/export/xlsx')).toBe(true));
    expect(calls.find((c) => c.path === '/api/iccard/action/export/xlsx')!.query.get('cardNo')).toBe('C0001');
  });
});
