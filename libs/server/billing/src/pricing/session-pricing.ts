/**
 * Price one charging session: split its energy over the plan's stages, then charge each stage.
 *
 * The rules (documented in docs/billing.md, and checked by an independent oracle in the tests):
 * 1. Energy between two consecutive meter readings accrues linearly in time. With only the start and
 *    stop readings this splits the session's energy by time.
 * 2. Each interval's energy (an integer number of Wh) is shared among the stages it overlaps in
 *    proportion to the overlap, in whole Wh, by the largest-remainder method; equal remainders favour
 *    the stage the interval enters first. So every Wh is billed exactly once.
 * 3. A stage's electricity fee and service fee are each Wh x price, rounded half up to the fen, once per
 *    stage of the plan for the whole session. The total is the sum of these rounded amounts.
 */
import { instantOf, localDay } from './business-time';
import { PRICE_SCALE, stageRanges, STAGE_TYPES, type PricePlan, type StageType } from './price-plan';

/** An energy register reading: instant (epoch ms) and cumulative energy (Wh). */
export type MeterReading = { at: number; energyWh: number };

export type StageCharge = {
  stageIndex: number;
  stageType: StageType;
  energyWh: number;
  electricityFen: number;
  serviceFen: number;
};

export type BandTotals = Record<StageType, { energyWh: number; electricityFen: number; serviceFen: number }>;

export type SessionPrice = {
  energyWh: number;
  electricityFen: number;
  serviceFen: number;
  totalFen: number;
  stages: StageCharge[];
  bands: BandTotals;
};

/** Wh × (1/10,000 yuan per kWh) -> fen: divide by 1000 Wh/kWh × 10,000 / 100 fen per yuan. */
const FEN_DIVISOR = (1000 * PRICE_SCALE) / 100;

/** Round half up of a non-negative rational n/d to an integer. */
function roundHalfUp(n: bigint, d: bigint): number {
  return Number((2n * n + d) / (2n * d));
}

export function feeFen(energyWh: number, pricePerKwh: number): number {
  return roundHalfUp(BigInt(energyWh) * BigInt(pricePerKwh), BigInt(FEN_DIVISOR));
}

type Piece = { start: number; end: number; index: number };
const piecesCache = new WeakMap<PricePlan, Map<string, Piece[]>>();

/** The plan's stages laid out on one local day as instants, in time order (cached per plan and day). */
function piecesOfDay(plan: PricePlan, day: number, timeZone: string): Piece[] {
  let byDay = piecesCache.get(plan);
  if (!byDay) piecesCache.set(plan, (byDay = new Map()));
  const key = `${timeZone}|${day}`;
  let pieces = byDay.get(key);
  if (!pieces) {
    pieces = plan.stages
      .flatMap((stage, index) =>
        stageRanges(stage).map(([startMinute, endMinute]) => ({
          start: instantOf(day, startMinute, timeZone),
          end: instantOf(day, endMinute, timeZone),
          index,
        })),
      )
      .sort((a, b) => a.start - b.start);
    if (byDay.size > 1000) byDay.clear();
    byDay.set(key, pieces);
  }
  return pieces;
}

/** Milliseconds of [from, to) spent in each stage, and the order in which the stages are entered. */
export function stageOverlaps(
  plan: PricePlan,
  from: number,
  to: number,
  timeZone: string,
): { overlapMs: number[]; firstEntered: number[] } {
  const overlapMs = new Array<number>(plan.stages.length).fill(0);
  const firstEntered: number[] = [];
  if (to <= from) return { overlapMs, firstEntered };
  const lastDay = localDay(to - 1, timeZone);
  for (let day = localDay(from, timeZone); day <= lastDay; day++) {
    for (const piece of piecesOfDay(plan, day, timeZone)) {
      const start = Math.max(from, piece.start);
      const end = Math.min(to, piece.end);
      if (end > start) {
        overlapMs[piece.index] += end - start;
        if (!firstEntered.includes(piece.index)) firstEntered.push(piece.index);
      }
    }
  }
  return { overlapMs, firstEntered };
}

/** Share `energyWh` over stages in proportion to `weights`, in whole Wh (largest remainder). */
export function shareWh(energyWh: number, weights: number[], tieOrder: number[]): number[] {
  const total = weights.reduce((a, b) => a + b, 0);
  const shares = new Array<number>(weights.length).fill(0);
  if (energyWh === 0) return shares;
  if (total === 0) throw new Error('cannot share energy over zero time');
  const e = BigInt(energyWh);
  const t = BigInt(total);
  const remainders: { index: number; remainder: bigint }[] = [];
  let given = 0;
  weights.forEach((w, index) => {
    const product = e * BigInt(w);
    shares[index] = Number(product / t);
    given += shares[index];
    if (w > 0) remainders.push({ index, remainder: product % t });
  });
  const rank = (index: number) => tieOrder.indexOf(index);
  remainders.sort((a, b) =>
    a.remainder === b.remainder ? rank(a.index) - rank(b.index) : a.remainder > b.remainder ? -1 : 1,
  );
  for (let i = 0; i < energyWh - given; i++) shares[remainders[i].index] += 1;
  return shares;
}

/** Stage index covering an instant (for readings taken at the same instant). */
function stageAt(plan: PricePlan, instant: number, timeZone: string): number {
  const { overlapMs } = stageOverlaps(plan, instant, instant + 1, timeZone);
  return overlapMs.findIndex((ms) => ms > 0);
}

/**
 * Split the session's energy over the plan's stages. Readings must be in time order with a
 * non-decreasing register (callers flag anything else as an abnormal session first).
 */
export function splitEnergy(plan: PricePlan, readings: MeterReading[], timeZone: string): number[] {
  if (readings.length < 2) throw new Error('a session needs at least its start and stop readings');
  const perStage = new Array<number>(plan.stages.length).fill(0);
  for (let i = 1; i < readings.length; i++) {
    const a = readings[i - 1];
    const b = readings[i];
    if (b.at < a.at) throw new Error('meter readings are not in time order');
    const delta = b.energyWh - a.energyWh;
    if (!Number.isInteger(delta) || delta < 0) throw new Error('meter register decreased or is not whole Wh');
    if (delta === 0) continue;
    if (b.at === a.at) {
      perStage[stageAt(plan, a.at, timeZone)] += delta;
      continue;
    }
    const { overlapMs, firstEntered } = stageOverlaps(plan, a.at, b.at, timeZone);
    shareWh(delta, overlapMs, firstEntered).forEach((wh, index) => (perStage[index] += wh));
  }
  return perStage;
}

export function priceSession(
  plan: PricePlan,
  readings: MeterReading[],
  timeZone = 'Asia/Shanghai',
): SessionPrice {
  const perStage = splitEnergy(plan, readings, timeZone);
  const stages: StageCharge[] = plan.stages.map((stage, stageIndex) => ({
    stageIndex,
    stageType: stage.stageType,
    energyWh: perStage[stageIndex],
    electricityFen: feeFen(perStage[stageIndex], stage.electricityPrice),
    serviceFen: feeFen(perStage[stageIndex], stage.serviceFee),
  }));
  const bands = Object.fromEntries(
    STAGE_TYPES.map((type) => [type, { energyWh: 0, electricityFen: 0, serviceFen: 0 }]),
  ) as BandTotals;
  for (const s of stages) {
    bands[s.stageType].energyWh += s.energyWh;
    bands[s.stageType].electricityFen += s.electricityFen;
    bands[s.stageType].serviceFen += s.serviceFen;
  }
  const electricityFen = stages.reduce((sum, s) => sum + s.electricityFen, 0);
  const serviceFen = stages.reduce((sum, s) => sum + s.serviceFen, 0);
  return {
    energyWh: perStage.reduce((a, b) => a + b, 0),
    electricityFen,
    serviceFen,
    totalFen: electricityFen + serviceFen,
    stages,
    bands,
  };
}
