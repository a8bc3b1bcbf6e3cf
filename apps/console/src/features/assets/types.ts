/** A row of a basic-data grid as the asset api returns it (docs/assets.md): fields by name, plus id. */
export type AssetRow = { id: number; organizationId?: number } & Record<string, unknown>;

/** The asset api's route segment of a grid: `/api/<kind>`. */
export type AssetKind =
  | 'company'
  | 'branch'
  | 'fleet'
  | 'line'
  | 'station'
  | 'pile'
  | 'gun'
  | 'transformer'
  | 'vehicle'
  | 'card'
  | 'manufacturer'
  | 'operator'
  | 'region'
  | 'label'
  | 'parkingSpace'
  | 'camera'
  | 'alarmCode'
  | 'stopCode'
  | 'maintenancePersonnel'
  | 'peakTime'
  | 'stationFee';

export type UnknownPileAttempt = {
  chargePointId: string;
  remoteAddresses: string[];
  attempts: number;
  firstSeenAt: string;
  lastSeenAt: string;
};

export type ImportReport = {
  mode?: string;
  total?: number;
  imported: number;
  failed?: number;
  errors?: { row: number; column?: string | null; header?: string | null; field: string; message: string }[];
};

export type PricePlanOption = { id: number; name: string; isDefault?: boolean };
