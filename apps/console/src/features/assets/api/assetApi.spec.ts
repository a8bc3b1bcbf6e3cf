// @vitest-environment node
import { apiOperations } from '@voltdepot/console-api-client';
import { describe, expect, it } from 'vitest';
import type { AssetKind } from '../types';
import { ASSET_PATHS, fillPath } from './assetApi';

/** The grids the screens call with each generic path (docs/assets.md). */
const KINDS: Record<string, readonly AssetKind[]> = {
  page: [
    'company',
    'branch',
    'fleet',
    'line',
    'station',
    'pile',
    'gun',
    'transformer',
    'vehicle',
    'card',
    'manufacturer',
    'operator',
    'region',
    'label',
    'parkingSpace',
    'camera',
    'alarmCode',
    'stopCode',
    'maintenancePersonnel',
    'peakTime',
    'stationFee',
  ],
  row: ['company', 'station', 'pile', 'gun', 'card', 'parkingSpace', 'peakTime', 'stationFee'],
  create: ['company', 'station', 'pile', 'gun', 'card', 'camera', 'alarmCode'],
  export: ['company', 'station', 'pile', 'gun', 'vehicle', 'card', 'camera', 'peakTime', 'stationFee'],
  import: ['company', 'vehicle', 'card', 'parkingSpace', 'stopCode', 'stationFee'],
  template: ['company', 'card', 'parkingSpace', 'stationFee'],
};

const served = new Set(Object.values(apiOperations).map((op) => `${op.method} ${op.path}`));
const METHOD: Record<string, string> = {
  create: 'POST',
  import: 'POST',
  pileBatch: 'POST',
  registerUnknown: 'POST',
  cardAction: 'POST',
  pictures: 'POST',
  assignPricePlan: 'POST',
};

describe('the paths of the basic-data screens are served by the api (generated client)', () => {
  it.each(Object.entries(KINDS).flatMap(([name, kinds]) => kinds.map((kind) => [name, kind] as const)))(
    '%s of %s',
    (name, kind) => {
      const template = ASSET_PATHS[name as keyof typeof ASSET_PATHS].replace('{kind}', kind);
      expect(served).toContain(`${METHOD[name] ?? 'GET'} ${template}`);
    },
  );

  it.each([
    ['pileBatch', '/api/pile/batch/{action}', ['enable', 'disable', 'delivery']],
    [
      'cardAction',
      '/api/card/{id}/{action}',
      ['make', 'reportLoss', 'releaseLoss', 'replace', 'swap', 'logout'],
    ],
  ] as const)('%s', (name, template, actions) => {
    for (const action of actions) expect(served).toContain(`POST ${template.replace('{action}', action)}`);
    expect(ASSET_PATHS[name]).toBe(template);
  });

  it.each([
    'unknownPiles',
    'unknownPilesExport',
    'registerUnknown',
    'pictures',
    'picture',
    'dictionary',
    'pricePlans',
    'assignPricePlan',
    'stationPricePlans',
  ] as const)('%s', (name) => {
    expect(served).toContain(`${METHOD[name] ?? 'GET'} ${ASSET_PATHS[name]}`);
  });

  it('fills templates, encoding values', () => {
    expect(fillPath(ASSET_PATHS.registerUnknown, { chargePointId: 'CP 1/2' })).toBe(
      '/api/pile/unknown/CP%201%2F2/register',
    );
    expect(() => fillPath(ASSET_PATHS.row, { kind: 'company' })).toThrow('missing path parameter id');
  });
});
