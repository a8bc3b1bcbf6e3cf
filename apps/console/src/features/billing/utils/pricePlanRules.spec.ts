// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { coverageProblems, formatPrice, parseServerProblem, priceProblem } from './pricePlanRules';

const day = [
  { stageType: 'valley' as const, startTime: '23:00', endTime: '07:00' },
  { stageType: 'normal' as const, startTime: '07:00', endTime: '10:00' },
  { stageType: 'peak' as const, startTime: '10:00', endTime: '17:00' },
  { stageType: 'sharp' as const, startTime: '17:00', endTime: '19:00' },
  { stageType: 'normal' as const, startTime: '19:00', endTime: '23:00' },
];

describe('coverageProblems', () => {
  it('accepts stages covering the day once, one of them over midnight', () => {
    expect(coverageProblems(day)).toEqual([]);
  });

  it('accepts one stage for the whole day, ending at 24:00 or at 00:00', () => {
    expect(coverageProblems([{ startTime: '00:00', endTime: '24:00' }])).toEqual([]);
    expect(coverageProblems([{ startTime: '00:00', endTime: '00:00' }])).toEqual([]);
  });

  it('names every gap with its time range', () => {
    const gap = day.map((s, i) => (i === 1 ? { ...s, endTime: '09:00' } : s));
    expect(coverageProblems(gap)).toEqual([{ kind: 'gap', from: '09:00', to: '10:00' }]);
    expect(coverageProblems([{ startTime: '08:00', endTime: '20:00' }])).toEqual([
      { kind: 'gap', from: '00:00', to: '08:00' },
      { kind: 'gap', from: '20:00', to: '24:00' },
    ]);
  });

  it('names every overlap with its range and how many stages cover it', () => {
    const overlap = day.map((s, i) => (i === 1 ? { ...s, endTime: '11:00' } : s));
    expect(coverageProblems(overlap)).toEqual([{ kind: 'overlap', from: '10:00', to: '11:00', count: 2 }]);
    const triple = [
      ...day,
      { startTime: '06:30', endTime: '07:30' },
      { startTime: '06:45', endTime: '07:15' },
    ];
    expect(coverageProblems(triple)).toEqual([
      { kind: 'overlap', from: '06:30', to: '06:45', count: 2 },
      { kind: 'overlap', from: '06:45', to: '07:15', count: 3 },
      { kind: 'overlap', from: '07:15', to: '07:30', count: 2 },
    ]);
  });

  it('flags a stage whose start and end are the same time (it covers nothing)', () => {
    const problems = coverageProblems([
      { startTime: '00:00', endTime: '24:00' },
      { startTime: '08:00', endTime: '08:00' },
    ]);
    expect(problems).toEqual([{ kind: 'sameTime', row: 2 }]);
  });

  it('ignores rows whose times are not filled in yet, reporting the day as a gap', () => {
    expect(coverageProblems([{ startTime: '', endTime: '' }])).toEqual([
      { kind: 'gap', from: '00:00', to: '24:00' },
    ]);
  });
});

describe('priceProblem', () => {
  it.each([
    ['0.8523', undefined],
    ['1', undefined],
    ['100', undefined],
    ['0.0001', undefined],
    [' 0.85 ', undefined],
    ['0.85231', 'format'],
    ['-0.5', 'format'],
    ['0,85', 'format'],
    ['abc', 'format'],
    ['.5', 'format'],
    ['100.0001', 'max'],
    ['', 'required'],
    [undefined, 'required'],
  ])('%s -> %s', (value, problem) => {
    expect(priceProblem(value)).toBe(problem);
  });

  it('writes prices with 4 decimals, exactly as typed', () => {
    expect(formatPrice('0.8')).toBe('0.8000');
    expect(formatPrice('0.8523')).toBe('0.8523');
    expect(formatPrice('12')).toBe('12.0000');
    expect(formatPrice('007.1')).toBe('7.1000');
  });
});

describe('parseServerProblem', () => {
  it('reads the api sentences for gaps and overlaps', () => {
    expect(parseServerProblem('gap between 08:00 and 09:00: no stage covers it')).toEqual({
      kind: 'gap',
      from: '08:00',
      to: '09:00',
    });
    expect(parseServerProblem('overlap between 10:00 and 11:00: 2 stages cover it')).toEqual({
      kind: 'overlap',
      from: '10:00',
      to: '11:00',
      count: 2,
    });
    expect(parseServerProblem('stage 1: unknown stage type')).toBeUndefined();
  });
});
