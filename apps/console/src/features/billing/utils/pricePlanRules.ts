import type { StageTypeCode } from '@voltdepot/shared-contracts';
import type { PricePlanStageView } from '@voltdepot/console-api-client';

/** Minutes in a day; a stage ending at 00:00 ends at midnight (24:00). */
export const MINUTES_PER_DAY = 1440;

/** A price per kWh in yuan: up to 3 integer digits and at most 4 decimals (0.8523), at most 100. */
const PRICE = /^(\d{1,3})(?:\.(\d{1,4}))?$/;

export type PriceProblem = 'required' | 'format' | 'max';

/** What is wrong with a price as typed, exactly as the api judges it; undefined when it is fine. */
export function priceProblem(value: unknown): PriceProblem | undefined {
  const text = value === undefined || value === null ? '' : String(value).trim();
  if (text === '') return 'required';
  const match = PRICE.exec(text);
  if (!match) return 'format';
  const units = Number(match[1]) * 10_000 + Number((match[2] ?? '').padEnd(4, '0'));
  return units > 100 * 10_000 ? 'max' : undefined;
}

/** A price as the api returns it: 4 decimals ("0.8" -> "0.8000"). */
export function formatPrice(value: string | number): string {
  const text = String(value).trim();
  const match = PRICE.exec(text);
  if (!match) return text;
  return `${Number(match[1])}.${(match[2] ?? '').padEnd(4, '0')}`;
}

/** "HH:mm" (or "24:00") to a minute of the day; undefined for anything else. */
export function parseTime(text: string | undefined | null): number | undefined {
  const match = /^([01]\d|2[0-4]):([0-5]\d)$/.exec(text ?? '');
  if (!match) return undefined;
  const minute = Number(match[1]) * 60 + Number(match[2]);
  return minute > MINUTES_PER_DAY ? undefined : minute;
}

export function formatMinute(minute: number): string {
  if (minute === MINUTES_PER_DAY) return '24:00';
  return `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
}

export type StageDraft = {
  stageType?: StageTypeCode;
  startTime?: string;
  endTime?: string;
  electricityPrice?: string;
  serviceFee?: string;
};

/** The [start, end) minute ranges a stage covers; an end at or before the start wraps midnight. */
export function stageRanges(startTime: string | undefined, endTime: string | undefined): [number, number][] {
  const start = parseTime(startTime);
  let end = parseTime(endTime);
  if (start === undefined || end === undefined || start >= MINUTES_PER_DAY) return [];
  if (end === 0) end = MINUTES_PER_DAY;
  if (end === start) return [];
  if (end > start) return [[start, end]];
  const ranges: [number, number][] = [[start, MINUTES_PER_DAY]];
  if (end > 0) ranges.push([0, end]);
  return ranges;
}

export type CoverageProblem =
  | { kind: 'gap'; from: string; to: string }
  | { kind: 'overlap'; from: string; to: string; count: number }
  | { kind: 'sameTime'; row: number };

/**
 * Where the stages fail to cover the day exactly once: every gap and every overlap as a time range
 * (the api's rule, checked as the user types; the api checks again and names the same ranges).
 */
export function coverageProblems(stages: readonly StageDraft[]): CoverageProblem[] {
  const problems: CoverageProblem[] = [];
  const cover = new Array<number>(MINUTES_PER_DAY).fill(0);
  stages.forEach((stage, index) => {
    const start = parseTime(stage.startTime);
    const end = parseTime(stage.endTime);
    if (start !== undefined && end !== undefined && start === (end === 0 ? MINUTES_PER_DAY : end)) {
      problems.push({ kind: 'sameTime', row: index + 1 });
      return;
    }
    for (const [from, to] of stageRanges(stage.startTime, stage.endTime))
      for (let m = from; m < to; m++) cover[m]++;
  });
  let runStart = 0;
  for (let i = 1; i <= MINUTES_PER_DAY; i++) {
    if (i < MINUTES_PER_DAY && cover[i] === cover[runStart]) continue;
    const count = cover[runStart];
    if (count === 0) problems.push({ kind: 'gap', from: formatMinute(runStart), to: formatMinute(i) });
    if (count > 1)
      problems.push({ kind: 'overlap', from: formatMinute(runStart), to: formatMinute(i), count });
    runStart = i;
  }
  return problems;
}

/** The api's own sentences for gaps and overlaps (422 details.problems), parsed to be shown translated. */
export function parseServerProblem(text: string): CoverageProblem | undefined {
  const gap = /^gap between (\d{2}:\d{2}) and (\d{2}:\d{2})/.exec(text);
  if (gap) return { kind: 'gap', from: gap[1], to: gap[2] };
  const overlap = /^overlap between (\d{2}:\d{2}) and (\d{2}:\d{2}): (\d+) stages/.exec(text);
  if (overlap) return { kind: 'overlap', from: overlap[1], to: overlap[2], count: Number(overlap[3]) };
  return undefined;
}

/** The stage covering each minute of the day (for the 24-hour band chart); undefined where none does. */
export function bandsOfDay(stages: readonly StageDraft[]): { from: number; to: number; stage: StageDraft }[] {
  const pieces: { from: number; to: number; stage: StageDraft }[] = [];
  for (const stage of stages)
    for (const [from, to] of stageRanges(stage.startTime, stage.endTime)) pieces.push({ from, to, stage });
  return pieces.sort((a, b) => a.from - b.from);
}

export type { PricePlanStageView };
