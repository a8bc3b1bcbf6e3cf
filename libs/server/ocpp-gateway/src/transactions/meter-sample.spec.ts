import { energyRegisterFlag, JUMP_SLACK_WH, normalizeMeterValues } from './meter-sample';

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
  const at = (valueWh: number, ms = 0) => ({ valueWh, at: ms });
  it.each([
    [100, undefined, undefined],
    [100, at(100), undefined],
    [101, at(100), undefined],
    [99, at(100), undefined], // 1 Wh below: the register's rounding
    [98.99, at(100), 'decreasing'],
    [195, at(195.26), undefined], // meterStop-like whole Wh after a decimal sample
    [194.2, at(195.26), 'decreasing'],
    [-1, undefined, 'negative'],
    [-1, at(5), 'negative'],
  ])('%d after %p -> %p', (value, previous, flag) => {
    expect(energyRegisterFlag(value, previous)).toBe(flag);
  });

  // 600 kW for 10 minutes is 100 kWh; the bound adds JUMP_SLACK_WH.
  const tenMinutes = 600_000;
  it.each([
    [1_000 + 100_000, undefined],
    [1_000 + 100_000 + JUMP_SLACK_WH, undefined],
    [1_000 + 100_000 + JUMP_SLACK_WH + 1, 'jump'],
    [1_000 + 50_000_000, 'jump'],
  ])('a rise to %d Wh in 10 minutes at 600 kW max -> %p', (value, flag) => {
    expect(energyRegisterFlag(value, at(1_000, 0), tenMinutes, 600_000)).toBe(flag);
  });

  it('judges readings with the same time stamp by the slack alone', () => {
    expect(energyRegisterFlag(1_000 + JUMP_SLACK_WH, at(1_000, 5), 5, 600_000)).toBeUndefined();
    expect(energyRegisterFlag(1_000 + JUMP_SLACK_WH + 1, at(1_000, 5), 5, 600_000)).toBe('jump');
    // A reading older than the baseline is judged the same way (no negative time).
    expect(energyRegisterFlag(1_000 + JUMP_SLACK_WH + 1, at(1_000, 5), 1, 600_000)).toBe('jump');
  });
});
