import type { AssetField, RefSpec } from '../components/fieldModel';
import { PATTERNS } from '../rules/formRules';
import type { AssetRow } from '../types';

/** Fields many grids share, with the limits the api checks (business-areas §5 "1 to 16/32 characters"). */
export const numberField = (o: Partial<AssetField> = {}): AssetField => ({
  name: 'number',
  label: 'number',
  kind: 'text',
  required: true,
  text: { max: 16 },
  search: true,
  ...o,
});
export const nameField = (o: Partial<AssetField> = {}): AssetField => ({
  name: 'name',
  label: 'name',
  kind: 'text',
  required: true,
  text: { max: 32 },
  search: true,
  ...o,
});
export const phoneField = (name: string, label: string, required: boolean): AssetField => ({
  name,
  label,
  kind: 'text',
  required,
  text: { max: 32, pattern: PATTERNS.phone },
});
export const remarkField = (name = 'remark', label = 'remark'): AssetField => ({
  name,
  label,
  kind: 'textarea',
  text: { max: 255 },
  grid: false,
});

export const stationRefSpec: RefSpec = { kind: 'station' };
export const companyRefSpec: RefSpec = { kind: 'company' };
export const pileRefSpec: RefSpec = {
  kind: 'pile',
  labelOf: (row: AssetRow) => `${String(row['name'])} (${String(row['chargePointId'])})`,
};

export const stationField = (o: Partial<AssetField> = {}): AssetField => ({
  name: 'stationId',
  label: 'station',
  kind: 'ref',
  required: true,
  ref: stationRefSpec,
  view: 'stationName',
  search: true,
  ...o,
});
