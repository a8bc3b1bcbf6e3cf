import { CARD_STATUSES } from '@voltdepot/shared-contracts';
import { idTagStatusOf } from './id-tag.repository';
import {
  chargingCardOf,
  latestPerCard,
  supersedes,
  unsyncableReason,
  type IcCardState,
} from './ic-card-states';

const state = (cardNo: string, sequence: number, status: IcCardState['status'] = 'normal'): IcCardState => ({
  cardNo,
  cardType: 1,
  status,
  customerName: 'Han Meimei',
  organizationId: 1,
  sequence,
});

describe('IC card states (last writer wins by sequence)', () => {
  it('keeps the highest sequence per card, whatever the arrival order', () => {
    const states = [state('C1', 5, 'lost'), state('C2', 1), state('C1', 7, 'normal'), state('C1', 6, 'lost')];
    expect(latestPerCard(states)).toEqual([state('C1', 7, 'normal'), state('C2', 1)]);
    expect(latestPerCard([...states].reverse())).toEqual([state('C1', 7, 'normal'), state('C2', 1)]);
  });

  it.each([
    [null, 1, true], // a card kept by hand on the grid takes the IC card's state
    [undefined, 1, true],
    [4, 5, true],
    [5, 5, false], // redelivered
    [6, 5, false], // older, replayed or reordered
  ])('a stored sequence %p is replaced by %p: %p', (stored, candidate, replaces) => {
    expect(supersedes({ sequence: candidate }, stored)).toBe(replaces);
  });
});

describe('the charging card of an IC card', () => {
  it.each([
    ['notMade', 'Invalid'],
    ['normal', 'Accepted'],
    ['occupied', 'Accepted'],
    ['lost', 'Blocked'],
    ['cancelled', 'Blocked'],
    ['invalid', 'Invalid'],
  ] as const)('an IC card %s answers the pile %s', (status, answer) => {
    const card = chargingCardOf(state('C1', 1, status));
    expect(idTagStatusOf(card.status)).toBe(answer);
  });

  it('maps every IC status to a basic-data status (the same codes)', () => {
    for (const status of CARD_STATUSES)
      expect(CARD_STATUSES).toContain(chargingCardOf(state('C1', 1, status)).status);
  });

  it('takes the number as physical and self number, the type, holder and organisation', () => {
    expect(chargingCardOf({ ...state('C-01', 9), cardType: 3 })).toEqual({
      physicalNumber: 'C-01',
      selfNumber: 'C-01',
      type: 3,
      status: 'normal',
      cardholder: 'Han Meimei',
      organizationId: 1,
      icCardSequence: 9,
    });
    expect(chargingCardOf({ ...state('C1', 1), customerName: undefined }).cardholder).toBe('C1');
    expect(chargingCardOf({ ...state('C1', 1), customerName: 'x'.repeat(50) }).cardholder).toHaveLength(32);
  });

  it('refuses a number longer than a physical number holds', () => {
    expect(unsyncableReason({ cardNo: 'A'.repeat(16) })).toBeUndefined();
    expect(unsyncableReason({ cardNo: 'A'.repeat(17) })).toMatch(/longer than the 16/);
  });
});
