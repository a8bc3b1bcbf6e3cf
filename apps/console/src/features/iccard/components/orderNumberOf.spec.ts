import { describe, expect, it } from 'vitest';
import { orderNumberOf } from '@voltdepot/shared-contracts';

describe('the order number of a ledger record', () => {
  it.each([
    ['consumption', 'CO20261127001', 'CO20261127001'],
    ['consumption_amendment', 'CO20261127001', 'CO20261127001'],
    ['recharge', 'card:HFC20250101', null],
    ['allocation', 'group:1', null],
    ['consumption', null, null],
  ])('%s with %s shows %s', (kind, reference, shown) => {
    expect(orderNumberOf(kind, reference)).toBe(shown);
  });
});
