import { z } from 'zod';
import { AssetsErrorCode, AssetsException } from '../assets.exception';
import type { AssetDefinition, AssetReference } from '../shared/asset-definition';
import { optionalId, requiredId, requiredText } from '../shared/fields';

export const companyRef: AssetReference = {
  field: 'companyId',
  table: 'bus_company',
  noun: 'Company',
  scoped: true,
};
export const branchRef: AssetReference = {
  field: 'branchId',
  table: 'bus_branch',
  noun: 'Branch',
  scoped: true,
};
export const fleetRef: AssetReference = { field: 'fleetId', table: 'bus_fleet', noun: 'Fleet', scoped: true };
export const lineRef: AssetReference = { field: 'lineId', table: 'bus_line', noun: 'Line', scoped: true };

const numberAndName = {
  number: requiredText('Number', 16),
  name: requiredText('Name', 32),
};
const numberAndNameColumns = [
  { field: 'number', column: 'number', kind: 'text' },
  { field: 'name', column: 'name', kind: 'text' },
] as const;
const numberAndNameFilters = [
  { field: 'number', sql: 't.number', kind: 'like' },
  { field: 'name', sql: 't.name', kind: 'like' },
] as const;

const companySchema = z.object({ ...numberAndName, organizationId: optionalId('Organization') }).strict();

export const companyDefinition: AssetDefinition = {
  kind: 'company',
  noun: 'Company',
  table: 'bus_company',
  scoped: true,
  permission: 'basic:company',
  columns: [...numberAndNameColumns],
  references: [],
  unique: [
    {
      constraint: 'bus_company_number_uq',
      field: 'number',
      message: (v) => `A company numbered '${String(v['number'])}' already exists`,
    },
  ],
  createSchema: companySchema,
  updateSchema: companySchema,
  filters: [...numberAndNameFilters],
};

const branchSchema = z.object({ companyId: requiredId('Company'), ...numberAndName }).strict();

export const branchDefinition: AssetDefinition = {
  kind: 'branch',
  noun: 'Branch',
  table: 'bus_branch',
  scoped: true,
  permission: 'basic:branch',
  columns: [{ field: 'companyId', column: 'company_id', kind: 'int' }, ...numberAndNameColumns],
  computed: [
    {
      field: 'companyName',
      sql: '(SELECT c.name FROM bus_company c WHERE c.id = t.company_id)',
      kind: 'text',
    },
  ],
  references: [companyRef],
  organizationFrom: ['companyId'],
  unique: [
    {
      constraint: 'bus_branch_number_uq',
      field: 'number',
      within: ['companyId'],
      message: (v) =>
        `Company ${String(v['companyId'])} already has a branch numbered '${String(v['number'])}'`,
    },
  ],
  createSchema: branchSchema,
  updateSchema: branchSchema,
  filters: [{ field: 'companyId', sql: 't.company_id', kind: 'int' }, ...numberAndNameFilters],
};

const fleetSchema = z
  .object({ companyId: requiredId('Company'), branchId: optionalId('Branch'), ...numberAndName })
  .strict();

export const fleetDefinition: AssetDefinition = {
  kind: 'fleet',
  noun: 'Fleet',
  table: 'bus_fleet',
  scoped: true,
  permission: 'basic:fleet',
  columns: [
    { field: 'companyId', column: 'company_id', kind: 'int' },
    { field: 'branchId', column: 'branch_id', kind: 'int' },
    ...numberAndNameColumns,
  ],
  computed: [
    {
      field: 'companyName',
      sql: '(SELECT c.name FROM bus_company c WHERE c.id = t.company_id)',
      kind: 'text',
    },
    { field: 'branchName', sql: '(SELECT b.name FROM bus_branch b WHERE b.id = t.branch_id)', kind: 'text' },
  ],
  references: [companyRef, branchRef],
  organizationFrom: ['companyId'],
  unique: [
    {
      constraint: 'bus_fleet_number_uq',
      field: 'number',
      within: ['companyId'],
      message: (v) =>
        `Company ${String(v['companyId'])} already has a fleet numbered '${String(v['number'])}'`,
    },
  ],
  createSchema: fleetSchema,
  updateSchema: fleetSchema,
  filters: [
    { field: 'companyId', sql: 't.company_id', kind: 'int' },
    { field: 'branchId', sql: 't.branch_id', kind: 'int' },
    ...numberAndNameFilters,
  ],
  hooks: {
    async prepare({ values, references }) {
      const branch = references.get('branchId');
      if (branch !== undefined && Number(branch['company_id']) !== values['companyId']) {
        const message = `Branch ${String(values['branchId'])} does not belong to company ${String(values['companyId'])}`;
        throw new AssetsException(AssetsErrorCode.RuleViolated, message, [{ field: 'branchId', message }]);
      }
      return {};
    },
  },
};

const lineSchema = z.object({ fleetId: requiredId('Fleet'), ...numberAndName }).strict();

export const lineDefinition: AssetDefinition = {
  kind: 'line',
  noun: 'Line',
  table: 'bus_line',
  scoped: true,
  permission: 'basic:line',
  columns: [{ field: 'fleetId', column: 'fleet_id', kind: 'int' }, ...numberAndNameColumns],
  computed: [
    { field: 'fleetName', sql: '(SELECT f.name FROM bus_fleet f WHERE f.id = t.fleet_id)', kind: 'text' },
  ],
  references: [fleetRef],
  organizationFrom: ['fleetId'],
  unique: [
    {
      constraint: 'bus_line_number_uq',
      field: 'number',
      within: ['fleetId'],
      message: (v) => `Fleet ${String(v['fleetId'])} already has a line numbered '${String(v['number'])}'`,
    },
  ],
  createSchema: lineSchema,
  updateSchema: lineSchema,
  filters: [{ field: 'fleetId', sql: 't.fleet_id', kind: 'int' }, ...numberAndNameFilters],
};
