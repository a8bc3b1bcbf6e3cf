import { z } from 'zod';
import type { AssetDefinition } from '../shared/asset-definition';
import { optionalBoolean, requiredId, requiredText } from '../shared/fields';
import { stationRef } from './stations.definition';

/** Where a camera's stream or page is reached: http(s), rtsp or rtmp. */
const EXTERNAL_ADDRESS = /^(https?|rtsps?|rtmp):\/\/[^\s/$.?#][^\s]*$/i;

const cameraSchema = z
  .object({
    stationId: requiredId('Station'),
    code: requiredText('Camera id', 64, 1, {
      regex: /^[A-Za-z0-9._:-]+$/,
      message: 'Camera id may contain only letters, digits and . _ : -',
    }),
    name: requiredText('Name', 32),
    externalAddress: requiredText('External address', 255, 1, {
      regex: EXTERNAL_ADDRESS,
      message: 'External address must be an http, https, rtsp or rtmp address',
    }),
    isShow: optionalBoolean('Shown in the camera tree', true),
  })
  .strict();

/** A camera at a station: its id on the video platform, name and the external address of its stream. */
export const cameraDefinition: AssetDefinition = {
  kind: 'camera',
  noun: 'Camera',
  table: 'camera',
  scoped: true,
  permission: 'basic:camera',
  columns: [
    { field: 'stationId', column: 'station_id', kind: 'int' },
    { field: 'code', column: 'code', kind: 'text' },
    { field: 'name', column: 'name', kind: 'text' },
    { field: 'externalAddress', column: 'external_address', kind: 'text' },
    { field: 'isShow', column: 'is_show', kind: 'bool' },
  ],
  computed: [
    { field: 'stationName', sql: '(SELECT s.name FROM station s WHERE s.id = t.station_id)', kind: 'text' },
  ],
  references: [stationRef],
  organizationFrom: ['stationId'],
  unique: [
    {
      constraint: 'camera_code_uq',
      field: 'code',
      message: (v) => `A camera with id '${String(v['code'])}' already exists`,
    },
  ],
  createSchema: cameraSchema,
  updateSchema: cameraSchema,
  filters: [
    { field: 'stationId', sql: 't.station_id', kind: 'int' },
    { field: 'name', sql: 't.name', kind: 'like' },
    { field: 'code', sql: 't.code', kind: 'like' },
  ],
};
