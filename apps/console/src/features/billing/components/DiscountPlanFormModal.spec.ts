import type { DiscountPlanView } from '@voltdepot/console-api-client';
import type { Dayjs } from 'dayjs';
import { describe, expect, it } from 'vitest';
import { withBrowserTimeZone } from '../../../test/browserTimeZone';
import { discountPlanBody, discountPlanFormValues } from './DiscountPlanFormModal';

withBrowserTimeZone('UTC');

describe('discount plan form: the valid period is business time', () => {
  it('shows a saved period in business time and saves it back unchanged', () => {
    const plan = {
      id: 1,
      name: 'Night',
      customerType: 2,
      priceDiscount: 90,
      serviceFeeDiscount: 80,
      validFrom: '2026-02-28T16:00:00.000Z', // 2026-03-01 00:00:00 in Shanghai
      validTo: '2026-03-31T15:59:59.000Z',
      enabled: true,
      details: [{ idTag: 'CARD1' }],
    } as unknown as DiscountPlanView;
    const values = discountPlanFormValues(plan);
    const [from, to] = values.validPeriod as [Dayjs, Dayjs];
    expect([from.format('YYYY-MM-DD HH:mm:ss'), to.format('YYYY-MM-DD HH:mm:ss')]).toEqual([
      '2026-03-01 00:00:00',
      '2026-03-31 23:59:59',
    ]);
    const body = discountPlanBody({ ...values, validPeriod: [from, to] } as never);
    expect([body.validFrom, body.validTo]).toEqual([
      '2026-03-01T00:00:00+08:00',
      '2026-03-31T23:59:59+08:00',
    ]);
    expect([Date.parse(body.validFrom), Date.parse(body.validTo)]).toEqual([
      Date.parse(plan.validFrom),
      Date.parse(plan.validTo),
    ]);
  });
});
