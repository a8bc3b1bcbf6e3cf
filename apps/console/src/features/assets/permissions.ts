/** Resource codes of the basic-data screens (menus seeded under `basic`, buttons by the assets migrations). */
export const BASIC_MENUS = {
  station: 'basic:station',
  host: 'basic:host',
  gun: 'basic:gun',
  vehicle: 'basic:vehicle',
  cardConfig: 'basic:cardConfig',
  company: 'basic:company',
  branch: 'basic:branch',
  fleet: 'basic:fleet',
  line: 'basic:line',
  transformer: 'basic:transformer',
  manufacturer: 'basic:manufacturer',
  operator: 'basic:operator',
  region: 'basic:region',
  label: 'basic:label',
  parkingSpace: 'basic:parkingSpace',
  camera: 'basic:camera',
  alarmCode: 'basic:alarmCode',
  stopCode: 'basic:stopCode',
  maintenancePersonnel: 'basic:maintenancePersonnel',
  peakTime: 'basic:peakTime',
  stationFee: 'basic:stationFee',
} as const;

export type GridPermission = (typeof BASIC_MENUS)[keyof typeof BASIC_MENUS];

/** The buttons of one grid: `<menu>:query|add|edit|delete|export|import`. */
export function gridButtons(menu: string) {
  return {
    query: `${menu}:query`,
    add: `${menu}:add`,
    edit: `${menu}:edit`,
    delete: `${menu}:delete`,
    export: `${menu}:export`,
    import: `${menu}:import`,
  };
}

export const HOST_BUTTONS = {
  enable: 'basic:host:enable',
  delivery: 'basic:host:delivery',
  unknown: 'basic:host:unknown',
  unknownExport: 'basic:host:unknown:export',
  add: 'basic:host:add',
} as const;

export const PRICE_PLAN_BUTTONS = { view: 'price_plan:view', edit: 'price_plan:edit' } as const;
