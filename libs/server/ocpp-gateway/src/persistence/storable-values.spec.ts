import { findUnstorableText, findUnstorableValue, storableText } from './storable-values';

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
    // A character outside the basic plane is a surrogate pair, which is well-formed.
    [{ vendorId: 'v', data: 'bus 🚌 桩' }],
    [{}],
  ])('lets %j through', (params) => {
    expect(findUnstorableValue(params)).toBeUndefined();
  });

  it.each([
    [{ connectorId: 2 ** 31, meterStart: 0 }, 'connectorId is outside the 32-bit integer range'],
    [{ connectorId: 1, meterStart: 2 ** 53 }, 'meterStart is beyond the exactly representable range'],
    [{ transactionId: 2 ** 53 }, 'transactionId is beyond the exactly representable range'],
    [{ idTag: 'BUS\u0000101' }, 'idTag contains a NUL character'],
    [{ idTag: 'BUS\ud800101' }, 'idTag contains an unpaired UTF-16 surrogate'],
    [{ vendorId: 'v', data: 'tail \udc00' }, 'data contains an unpaired UTF-16 surrogate'],
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

describe('findUnstorableText', () => {
  it('names the first string with a NUL character, and nothing else', () => {
    expect(findUnstorableText({ vendorId: 'v', data: 'a\u0000b' })).toBe('data contains a NUL character');
    expect(findUnstorableText({ key: [{ value: '\u0000' }] })).toBe('key[0].value contains a NUL character');
    expect(findUnstorableText({ connectorId: 2 ** 40, startTime: '0000-01-01T00:00:00Z' })).toBeUndefined();
    expect(findUnstorableText('\\u0000 as text')).toBeUndefined();
    expect(findUnstorableText('a\u0000')).toBe('(root) contains a NUL character');
    expect(findUnstorableText([{ v: 1 }, [{ w: '\u0000' }]])).toBe('[1][0].w contains a NUL character');
    expect(findUnstorableText({ key: 'k', value: '\udbff' })).toBe(
      'value contains an unpaired UTF-16 surrogate',
    );
  });
});

describe('storableText', () => {
  it('drops NUL and replaces unpaired surrogates, keeping pairs and everything else', () => {
    expect(storableText('a\u0000b')).toBe('ab');
    expect(storableText('x\ud800y\udc00z')).toBe('x\ufffdy\ufffdz');
    expect(storableText('\ud83d\ude8c bus "q" \\')).toBe('🚌 bus "q" \\');
    const plain = 'CP-001:42';
    expect(storableText(plain)).toBe(plain);
  });
});
