import type { StageTypeCode } from '@voltdepot/shared-contracts';
import { z } from 'zod';
import { AssetsErrorCode, AssetsException } from '../assets.exception';
import type { AssetDefinition } from '../shared/asset-definition';
import { optionalId, optionalText, requiredEndTime, requiredEnum, requiredTime } from '../shared/fields';
import { stationRef } from './stations.definition';

/** business-areas §9 charging period types, as the peak-time grid lists them (valley up). */
export const PERIOD_TYPES = [
  'valley',
  'normal',
  'peak',
  'sharp',
  'deepValley',
] as const satisfies readonly StageTypeCode[];

const peakTimeSchema = z
  .object({
    stationId: optionalId('Station'),
    periodType: requiredEnum('Period type', PERIOD_TYPES),
    startTime: requiredTime('Start time'),
    endTime: requiredEndTime('End time'),
    remark: optionalText('Remark', 255),
    organizationId: optionalId('Organization'),
  })
  .strict()
  .superRefine((v, ctx) => {
    // Compared only once both are well-formed times (their own messages come first).
    const time = /^\d{2}:\d{2}$/;
    const both = typeof v.startTime === 'string' && typeof v.endTime === 'string';
    if (both && time.test(v.startTime) && time.test(v.endTime) && v.endTime <= v.startTime) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ['endTime'],
        message: 'End time must be later than start time',
      });
    }
  });

/**
 * Peak charging time: periods of the day by type (valley to sharp) for one station, or for every station
 * of an organisation when no station is given. Periods of the same station (or organisation) never overlap.
 */
export const peakTimeDefinition: AssetDefinition = {
  kind: 'peakTime',
  noun: 'Peak charging time',
  table: 'peak_charging_time',
  scoped: true,
  permission: 'basic:peakTime',
  columns: [
    { field: 'stationId', column: 'station_id', kind: 'int' },
    { field: 'periodType', column: 'period_type', kind: 'text' },
    { field: 'startTime', column: 'start_time', kind: 'time' },
    { field: 'endTime', column: 'end_time', kind: 'time' },
    { field: 'remark', column: 'remark', kind: 'text' },
  ],
  computed: [
    { field: 'stationName', sql: '(SELECT s.name FROM station s WHERE s.id = t.station_id)', kind: 'text' },
  ],
  references: [stationRef],
  organizationFrom: ['stationId'],
  unique: [],
  createSchema: peakTimeSchema,
  updateSchema: peakTimeSchema,
  filters: [
    { field: 'stationId', sql: 't.station_id', kind: 'int' },
    { field: 'periodType', sql: 't.period_type', kind: 'text' },
  ],
  orderBy: 't.organization_id, t.station_id NULLS FIRST, t.start_time',
  hooks: {
    async afterSave(m, saved) {
      // Checked after the write, inside the transaction: a clash rolls the row back.
      const clashes = (await m.query(
        `SELECT o.id, to_char(o.start_time, 'HH24:MI') AS start_time, to_char(o.end_time, 'HH24:MI') AS end_time
           FROM peak_charging_time o, peak_charging_time t
          WHERE t.id = $1 AND o.id <> t.id AND o.organization_id = t.organization_id
            AND o.station_id IS NOT DISTINCT FROM t.station_id
            AND o.start_time < t.end_time AND t.start_time < o.end_time
          ORDER BY o.start_time LIMIT 1`,
        [saved.id],
      )) as { id: number; start_time: string; end_time: string }[];
      if (clashes.length > 0) {
        const other = clashes[0];
        const message = `The period overlaps ${other.start_time}-${other.end_time} (peak charging time ${other.id})`;
        throw new AssetsException(AssetsErrorCode.RuleViolated, message, [{ field: 'startTime', message }]);
      }
    },
  },
};
