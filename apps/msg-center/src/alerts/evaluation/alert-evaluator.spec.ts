import { crosses, isFiring, statusOf, worstValue } from './alert-evaluator';

describe('alert comparison', () => {
  it('GE fires at or above the threshold, LE at or below', () => {
    expect([crosses('GE', 10, 10), crosses('GE', 9.9, 10)]).toEqual([true, false]);
    expect([crosses('LE', 0, 0), crosses('LE', 1, 0)]).toEqual([true, false]);
  });

  it('an unmeasurable target fires; a down HTTP check fires only through its value', () => {
    expect(isFiring({ target: 't', value: null, down: true }, 'GE', 100)).toBe(true);
    expect(isFiring({ target: 't', value: 0, down: true }, 'LE', 0)).toBe(true);
    expect(isFiring({ target: 't', value: 0, down: true }, 'GE', 1)).toBe(false);
  });

  it('derives the status and the worst value', () => {
    const m = (value: number | null, down: boolean, firing: boolean) => ({
      target: 't',
      value,
      down,
      firing,
    });
    expect(statusOf([m(1, false, false)])).toBe('UP');
    expect(statusOf([m(5, false, true), m(1, false, false)])).toBe('EXCEPTION');
    expect(statusOf([m(0, true, true)])).toBe('DOWN');
    expect(statusOf([m(0, true, false)])).toBe('DOWN');
    expect(statusOf([])).toBe('UP');
    expect(worstValue('GE', [3, null, 7])).toBe(7);
    expect(worstValue('LE', [3, null, 7])).toBe(3);
    expect(worstValue('LE', [null])).toBeNull();
  });
});
