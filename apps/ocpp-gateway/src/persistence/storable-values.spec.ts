import { findNulCharacter, findUnstorableValue } from './storable-values';

describe('findUnstorableValue', () => {
  it.each([
    [{ connectorId: 1, meterStart: 2 ** 31 - 1, timestamp: '2026-03-01T20:00:00Z' }],
    // A lifetime energy register past 2^31 Wh (2.1 GWh) is an ordinary reading.
    [{ transactionId: 7, meterStop: 3_500_000_000, timestamp: '2026-03-01T20:00:00Z' }],
    // A transaction id we never gave (a pile that lost its state): quarantined, not refused.
    [{ transactionId: 2 ** 40, meterStop: 1, timestamp: '2026-03-01T20:00:00Z' }],
    [{ transactionId: -(2 ** 31) - 1, meterStop: 1, timestamp: '2026-03-01T20:00:00Z' }],
    [{ connectorId: 1, meterStart: -(2 ** 31), timestamp: '9999-12-31T23:59:59.999+14:00' }],
    [{ meterValue: [{ timestamp: '0001-01-01T00:00:00Z', sampledValue: [{ value: '1e308' }] }] }],
    [{ chargePointVendor: 'Voltdepot', chargePointModel: 'Sim-150', data: '2016-12-31T23:59:60Z' }],
    [{}],
  ])('lets %j through', (params) => {
    expect(findUnstorableValue(params)).toBeUndefined();
  });

  it.each([
    [{ connectorId: 2 ** 31, meterStart: 0 }, 'connectorId is outside the 32-bit integer range'],
    [{ connectorId: 1, meterStart: 2 ** 53 }, 'meterStart is beyond the exactly representable range'],
    [{ transactionId: 2 ** 53 }, 'transactionId is beyond the exactly representable range'],
    [{ idTag: 'BUS\u0000101' }, 'idTag contains a NUL character'],
    [
      {
        meterValue: [
          { timestamp: '2026-01-01T00:00:00Z', sampledValue: [{ value: '1', unit: 'W' }] },
          { timestamp: '0000-06-01T00:00:00Z', sampledValue: [] },
        ],
      },
      'meterValue[1].timestamp is not a date-time that can be stored (from year 1 on, no leap second)',
    ],
    [
      { timestamp: '2016-12-31T23:59:60Z' },
      'timestamp is not a date-time that can be stored (from year 1 on, no leap second)',
    ],
    [
      { timestamp: '0001-01-01T00:30:00+01:00' },
      'timestamp is not a date-time that can be stored (from year 1 on, no leap second)',
    ],
    [
      { transactionData: [{ sampledValue: [{ value: 'x\u0000' }] }] },
      'transactionData[0].sampledValue[0].value contains a NUL character',
    ],
  ])('names the field of %j', (params, message) => {
    expect(findUnstorableValue(params)).toBe(message);
  });
});

describe('findNulCharacter', () => {
  it('names the first string with a NUL character, and nothing else', () => {
    expect(findNulCharacter({ vendorId: 'v', data: 'a\u0000b' })).toBe('data contains a NUL character');
    expect(findNulCharacter({ key: [{ value: '\u0000' }] })).toBe('key[0].value contains a NUL character');
    expect(findNulCharacter({ connectorId: 2 ** 40, startTime: '0000-01-01T00:00:00Z' })).toBeUndefined();
    expect(findNulCharacter('\\u0000 as text')).toBeUndefined();
    expect(findNulCharacter('a\u0000')).toBe('(root) contains a NUL character');
    expect(findNulCharacter([{ v: 1 }, [{ w: '\u0000' }]])).toBe('[1][0].w contains a NUL character');
  });
});
