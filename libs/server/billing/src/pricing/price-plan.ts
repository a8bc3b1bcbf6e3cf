/**
 * Price plans: the day is split into stages (time-of-use bands), each with an electricity price and a
 * service fee per kWh. Prices are integers in PRICE_SCALE units per kWh so that tariffs such as
 * 0.8523 yuan/kWh are exact; amounts are integer fen.
 */
import { STAGE_TYPE_CODES, type StageTypeCode } from '@voltdepot/shared-contracts';

/** The stage types (spec §9 charging period types), in the order a session's bands list them. */
export const STAGE_TYPES = STAGE_TYPE_CODES;
export type StageType = StageTypeCode;

/** Prices are stored in 1/10,000 yuan per kWh: 0.8523 yuan/kWh is 8523. */
export const PRICE_SCALE = 10_000;
export const MINUTES_PER_DAY = 1440;

export type PricePlanStage = {
  stageType: StageType;
  /** Minute of the day the stage starts, 0..1439. */
  startMinute: number;
  /** Minute of the day it ends (exclusive), 1..1440; a stage ending at or before its start wraps midnight. */
  endMinute: number;
  /** 1/10,000 yuan per kWh. */
  electricityPrice: number;
  /** 1/10,000 yuan per kWh. */
  serviceFee: number;
};

export type PricePlan = { stages: PricePlanStage[] };

export function formatMinute(minute: number): string {
  const m = ((minute % MINUTES_PER_DAY) + MINUTES_PER_DAY) % MINUTES_PER_DAY;
  if (minute === MINUTES_PER_DAY) return '24:00';
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

/** "HH:mm" (or "24:00") to a minute of the day; throws on anything else. */
export function parseMinute(text: string): number {
  const match = /^([01]\d|2[0-4]):([0-5]\d)$/.exec(text);
  if (!match) throw new Error(`'${text}' is not a time of day (HH:mm)`);
  const minute = Number(match[1]) * 60 + Number(match[2]);
  if (minute > MINUTES_PER_DAY) throw new Error(`'${text}' is after 24:00`);
  return minute;
}

/** The minutes of the day a stage covers, as [start, end) ranges without wrapping. */
export function stageRanges(stage: Pick<PricePlanStage, 'startMinute' | 'endMinute'>): [number, number][] {
  const { startMinute: start, endMinute: end } = stage;
  if (end > start) return [[start, end]];
  const ranges: [number, number][] = [];
  if (start < MINUTES_PER_DAY) ranges.push([start, MINUTES_PER_DAY]);
  if (end > 0) ranges.push([0, end]);
  return ranges;
}

/**
 * Everything wrong with a plan, each as a sentence naming the time range concerned. A valid plan
 * covers every minute of the day exactly once.
 */
export function pricePlanProblems(stages: PricePlanStage[]): string[] {
  const problems: string[] = [];
  if (stages.length === 0) return ['a price plan needs at least one stage covering 00:00-24:00'];
  stages.forEach((stage, i) => {
    const row = `stage ${i + 1}`;
    if (!STAGE_TYPES.includes(stage.stageType))
      problems.push(`${row}: unknown stage type '${stage.stageType}'`);
    if (
      !Number.isInteger(stage.startMinute) ||
      stage.startMinute < 0 ||
      stage.startMinute >= MINUTES_PER_DAY
    ) {
      problems.push(`${row}: start must be a time from 00:00 to 23:59`);
    }
    if (!Number.isInteger(stage.endMinute) || stage.endMinute < 1 || stage.endMinute > MINUTES_PER_DAY) {
      problems.push(`${row}: end must be a time from 00:01 to 24:00`);
    }
    if (stage.startMinute === stage.endMinute) problems.push(`${row}: start and end are the same time`);
    for (const [field, value] of [
      ['electricity price', stage.electricityPrice],
      ['service fee', stage.serviceFee],
    ] as const) {
      if (!Number.isInteger(value) || value < 0 || value > 100 * PRICE_SCALE) {
        problems.push(`${row}: ${field} must be between 0 and 100 yuan/kWh with at most 4 decimals`);
      }
    }
  });
  if (problems.length) return problems;

  const cover = new Array<number>(MINUTES_PER_DAY).fill(0);
  for (const stage of stages) {
    for (const [from, to] of stageRanges(stage)) for (let m = from; m < to; m++) cover[m]++;
  }
  for (const [from, to, count] of runs(cover)) {
    if (count === 0)
      problems.push(`gap between ${formatMinute(from)} and ${formatMinute(to)}: no stage covers it`);
    if (count > 1)
      problems.push(
        `overlap between ${formatMinute(from)} and ${formatMinute(to)}: ${count} stages cover it`,
      );
  }
  return problems;
}

function runs(values: number[]): [number, number, number][] {
  const result: [number, number, number][] = [];
  let start = 0;
  for (let i = 1; i <= values.length; i++) {
    if (i === values.length || values[i] !== values[start]) {
      result.push([start, i, values[start]]);
      start = i;
    }
  }
  return result;
}

/** Minute-of-day -> index of the stage covering it (only for a valid plan). */
export function stageIndexByMinute(stages: PricePlanStage[]): Int16Array {
  const table = new Int16Array(MINUTES_PER_DAY).fill(-1);
  stages.forEach((stage, index) => {
    for (const [from, to] of stageRanges(stage)) table.fill(index, from, to);
  });
  return table;
}
