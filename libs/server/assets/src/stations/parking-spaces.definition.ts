import { PARKING_SPACE_TYPES } from '@voltdepot/shared-contracts';
import { z } from 'zod';
import { AssetsErrorCode, AssetsException } from '../assets.exception';
import type { AssetDefinition } from '../shared/asset-definition';
import { optionalDecimal, optionalId, requiredEnum, requiredId, requiredText } from '../shared/fields';
import { stationRef } from './stations.definition';

const parkingSpaceSchema = z
  .object({
    stationId: requiredId('Station'),
    number: requiredText('Number', 16),
    type: requiredEnum('Parking space type', PARKING_SPACE_TYPES),
    lengthM: optionalDecimal('Length (m)', 0.01, 100),
    transverseDistanceM: optionalDecimal('Transverse distance (m)', 0, 1000),
    verticalDistanceM: optionalDecimal('Vertical distance (m)', 0, 1000),
    gunId: optionalId('Gun'),
  })
  .strict();

/** A parking space of a station, optionally served by one gun (the gun of the same station). */
export const parkingSpaceDefinition: AssetDefinition = {
  kind: 'parkingSpace',
  noun: 'Parking space',
  table: 'parking_space',
  scoped: true,
  permission: 'basic:parkingSpace',
  columns: [
    { field: 'stationId', column: 'station_id', kind: 'int' },
    { field: 'number', column: 'number', kind: 'text' },
    { field: 'type', column: 'type', kind: 'text' },
    { field: 'lengthM', column: 'length_m', kind: 'numeric' },
    { field: 'transverseDistanceM', column: 'transverse_distance_m', kind: 'numeric' },
    { field: 'verticalDistanceM', column: 'vertical_distance_m', kind: 'numeric' },
    { field: 'gunId', column: 'gun_id', kind: 'int' },
  ],
  computed: [
    { field: 'stationName', sql: '(SELECT s.name FROM station s WHERE s.id = t.station_id)', kind: 'text' },
    { field: 'gunName', sql: '(SELECT g.name FROM charging_gun g WHERE g.id = t.gun_id)', kind: 'text' },
  ],
  references: [
    stationRef,
    {
      field: 'gunId',
      table: 'charging_gun',
      noun: 'Gun',
      scoped: true,
      select: '(SELECT p.station_id FROM charging_pile p WHERE p.id = r.pile_id) AS pile_station_id',
    },
  ],
  organizationFrom: ['stationId'],
  unique: [
    {
      constraint: 'parking_space_number_uq',
      field: 'number',
      within: ['stationId'],
      message: (v) =>
        `Station ${String(v['stationId'])} already has a parking space numbered '${String(v['number'])}'`,
    },
  ],
  createSchema: parkingSpaceSchema,
  updateSchema: parkingSpaceSchema,
  filters: [
    { field: 'stationId', sql: 't.station_id', kind: 'int' },
    { field: 'number', sql: 't.number', kind: 'like' },
    { field: 'type', sql: 't.type', kind: 'text' },
  ],
  orderBy: 't.station_id DESC, t.number',
  hooks: {
    async prepare({ values, references }) {
      const gun = references.get('gunId');
      if (gun === undefined) return {};
      // The gun's host must stand at this station.
      if (Number(gun['pile_station_id']) !== values['stationId']) {
        const message = `Gun ${String(values['gunId'])} is not at station ${String(values['stationId'])}`;
        throw new AssetsException(AssetsErrorCode.RuleViolated, message, [{ field: 'gunId', message }]);
      }
      return {};
    },
  },
};
