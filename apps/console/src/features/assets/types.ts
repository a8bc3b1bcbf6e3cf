import type {
  AlarmCodeView,
  BranchView,
  CameraView,
  CardView,
  CompanyView,
  FleetView,
  GunView,
  LabelView,
  LineView,
  MaintenancePersonnelView,
  ManufacturerView,
  OperatorView,
  ParkingSpaceView,
  PeakTimeView,
  PileView,
  RegionView,
  StationFeeView,
  StationView,
  StopCodeView,
  TransformerView,
  VehicleView,
} from '@voltdepot/console-api-client';

export type {
  ImportReport,
  PricePlanView as PricePlanOption,
  UnknownPileAttempt,
} from '@voltdepot/console-api-client';

/** The row each basic-data grid answers with (generated from the api's document), by route segment. */
export type AssetRows = {
  company: CompanyView;
  branch: BranchView;
  fleet: FleetView;
  line: LineView;
  station: StationView;
  pile: PileView;
  gun: GunView;
  transformer: TransformerView;
  vehicle: VehicleView;
  card: CardView;
  manufacturer: ManufacturerView;
  operator: OperatorView;
  region: RegionView;
  label: LabelView;
  parkingSpace: ParkingSpaceView;
  camera: CameraView;
  alarmCode: AlarmCodeView;
  stopCode: StopCodeView;
  maintenancePersonnel: MaintenancePersonnelView;
  peakTime: PeakTimeView;
  stationFee: StationFeeView;
};

/** The asset api's route segment of a grid: `/api/<kind>`. */
export type AssetKind = keyof AssetRows;

/**
 * Any grid's row as the generic grid code reads it (docs/assets.md): fields by name, plus id. Every
 * generated row is one (checked below), so the grids stay generic while the api stays typed.
 */
export type AssetRow = { id: number; organizationId?: number } & Record<string, unknown>;

/** Any generated row (tsc refuses this default when one is not an AssetRow). */
export type GeneratedAssetRow<Row extends AssetRow = AssetRows[AssetKind]> = Row;
