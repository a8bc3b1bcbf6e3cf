import type { GridConfig } from '../components/AssetGridPage';
import { BASIC_MENUS } from '../permissions';
import { companyRefSpec, nameField, numberField } from './commonFields';

/** Companies -> branches -> fleets -> lines (business-areas §3, §5: number and name required). */
export const companyGrid: GridConfig = {
  kind: 'company',
  menu: BASIC_MENUS.company,
  title: 'company',
  importable: true,
  fields: [numberField(), nameField()],
};

export const branchGrid: GridConfig = {
  kind: 'branch',
  menu: BASIC_MENUS.branch,
  title: 'branch',
  importable: true,
  fields: [
    {
      name: 'companyId',
      label: 'company',
      kind: 'ref',
      required: true,
      ref: companyRefSpec,
      view: 'companyName',
      search: true,
    },
    numberField(),
    nameField(),
  ],
};

export const fleetGrid: GridConfig = {
  kind: 'fleet',
  menu: BASIC_MENUS.fleet,
  title: 'fleet',
  importable: true,
  fields: [
    {
      name: 'companyId',
      label: 'company',
      kind: 'ref',
      required: true,
      ref: companyRefSpec,
      view: 'companyName',
      search: true,
    },
    {
      name: 'branchId',
      label: 'branch',
      kind: 'ref',
      view: 'branchName',
      ref: {
        kind: 'branch',
        dependsOn: ['companyId'],
        params: (v) => (v['companyId'] ? { companyId: v['companyId'] as number } : null),
      },
    },
    numberField(),
    nameField(),
  ],
};

export const lineGrid: GridConfig = {
  kind: 'line',
  menu: BASIC_MENUS.line,
  title: 'line',
  importable: true,
  fields: [
    {
      name: 'fleetId',
      label: 'fleet',
      kind: 'ref',
      required: true,
      ref: { kind: 'fleet' },
      view: 'fleetName',
      search: true,
    },
    numberField(),
    nameField(),
  ],
};
