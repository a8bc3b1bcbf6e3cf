import type { ChargingOrderPage, ChargingOrderRow } from '@voltdepot/console-api-client';
import { describe, expect, it } from 'vitest';
import { dictionaryRoutes, stubApi } from '../../../test/fakeApi';
import { aChargingOrder, BILLING_DICTIONARIES } from '../../../test/fixtures';
import { waitFor } from '../../../test/render';
import { renderInApp } from '../../../test/renderInApp';
import { BILLING_PERMISSIONS } from '../permissions';
import { AbnormalOrdersPage } from './AbnormalOrdersPage';

/** A billed order flagged for a repeated stop, pending review. */
const flagged: ChargingOrderRow = aChargingOrder({
  id: 31,
  energyWh: 10_000,
  electricityFen: 1_000,
  serviceFen: 200,
  totalFen: 1_200,
  reviewStatus: 'pending',
  abnormalReasons: ['repeatedStop', 'meterJump'],
});
const answer: ChargingOrderPage = {
  list: [flagged],
  total: 1,
  totals: {
    count: 1,
    energyWh: 10_000,
    electricityFen: 1_000,
    serviceFen: 200,
    totalFen: 1_200,
    discountFen: 0,
  },
};

describe('AbnormalOrdersPage', { timeout: 120_000 }, () => {
  it.each([
    ['en-US', ['Repeated record', 'Meter data error'], 'A second, different stop for the same transaction'],
    ['zh-CN', ['重复记录', '电表数据错误'], '同一交易收到两条不一致的结束记录'],
  ] as const)(
    '%s: labels each held or flagged reason, never its code, and offers review and amend',
    async (locale, types, reason) => {
      const { calls } = stubApi({
        ...dictionaryRoutes(BILLING_DICTIONARIES),
        'GET /api/chargingOrder/options': () => ({ stations: [], piles: [], guns: [] }),
        'GET /api/chargingOrder/page/1/size/20': () => answer,
      });
      await renderInApp(<AbnormalOrdersPage />, { locale });
      await waitFor(() => expect(document.querySelector('[data-testid="amend-31"]')).not.toBeNull());
      expect(calls.find((c) => c.path === '/api/chargingOrder/page/1/size/20')?.query.get('held')).toBe(
        'true',
      );
      const tags = [...document.querySelectorAll('[data-testid="abnormal-type"]')].map((e) => e.textContent);
      expect(tags).toEqual(types);
      const text = document.body.textContent ?? '';
      expect(text).toContain(reason);
      expect(text).not.toContain('repeatedStop');
      expect(document.querySelector('[data-testid="review-31"]')).not.toBeNull();
    },
  );

  it('offers no amendment to a user without charging_order:amend', async () => {
    stubApi({
      ...dictionaryRoutes(BILLING_DICTIONARIES),
      'GET /api/chargingOrder/options': () => ({ stations: [], piles: [], guns: [] }),
      'GET /api/chargingOrder/page/1/size/20': () => answer,
    });
    await renderInApp(<AbnormalOrdersPage />, {
      permissions: [
        BILLING_PERMISSIONS.abnormalOrderMenu,
        BILLING_PERMISSIONS.orderView,
        BILLING_PERMISSIONS.orderReview,
      ],
    });
    await waitFor(() => expect(document.querySelector('[data-testid="review-31"]')).not.toBeNull());
    expect(document.querySelector('[data-testid="amend-31"]')).toBeNull();
  });
});
