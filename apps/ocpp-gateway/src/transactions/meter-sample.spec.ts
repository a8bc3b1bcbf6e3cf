import { energyRegisterFlag, normalizeMeterValues } from './meter-sample';

describe('normalizeMeterValues', () => {
  it('defaults to the energy register in Wh and scales kWh/kW to Wh/W', () => {
    const samples = normalizeMeterValues([
      {
        timestamp: '2026-01-01T00:00:00Z',
        sampledValue: [
          { value: '1200' },
          { value: '1.5', measurand: 'Energy.Active.Import.Register', unit: 'kWh' },
          { value: '120.25', measurand: 'Power.Active.Import', unit: 'kW' },
          { value: '55', measurand: 'SoC', unit: 'Percent', location: 'EV' },
        ],
      },
    ]);
    expect(samples.map((s) => [s.measurand, s.value, s.unit])).toEqual([
      ['Energy.Active.Import.Register', 1200, 'Wh'],
      ['Energy.Active.Import.Register', 1500, 'Wh'],
      ['Power.Active.Import', 120250, 'W'],
      ['SoC', 55, 'Percent'],
    ]);
    expect(samples[3].location).toBe('EV');
    expect(samples[0].sampledAt).toBe('2026-01-01T00:00:00.000Z');
  });

  it.each(['abc', '', 'NaN', 'Infinity'])('flags %j as unparseable', (value) => {
    const [sample] = normalizeMeterValues([{ timestamp: '2026-01-01T00:00:00Z', sampledValue: [{ value }] }]);
    expect(sample.flag).toBe('unparseable');
    expect(Number.isNaN(sample.value)).toBe(true);
  });

  it('flags a value that only scaling makes infinite as unparseable', () => {
    const [sample] = normalizeMeterValues([
      { timestamp: '2026-01-01T00:00:00Z', sampledValue: [{ value: '1e306', unit: 'kWh' }] },
    ]);
    expect(sample).toMatchObject({ flag: 'unparseable', unit: 'Wh' });
    expect(Number.isNaN(sample.value)).toBe(true);
  });
});

describe('energyRegisterFlag', () => {
  it.each([
    [100, undefined, undefined],
    [100, 100, undefined],
    [101, 100, undefined],
    [99, 100, 'decreasing'],
    [-1, undefined, 'negative'],
    [-1, 5, 'negative'],
  ])('%d after %p -> %p', (value, previous, flag) => {
    expect(energyRegisterFlag(value, previous)).toBe(flag);
  });
});
