import { useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { AssetGridPage } from '../components/AssetGridPage';
import { cardGrid } from '../grids/cardGrid';
import { gunGrid } from '../grids/gunGrid';
import { branchGrid, companyGrid, fleetGrid, lineGrid } from '../grids/organisationGrids';
import {
  alarmCodeGrid,
  labelGrid,
  manufacturerGrid,
  operatorGrid,
  regionGrid,
  stopCodeGrid,
} from '../grids/referenceGrids';
import { stationGrid } from '../grids/stationGrid';
import {
  cameraGrid,
  maintenancePersonnelGrid,
  parkingSpaceGrid,
  peakTimeGrid,
  stationFeeGrid,
  transformerGrid,
} from '../grids/stationGrids';
import { vehicleGrid } from '../grids/vehicleGrid';

/** The basic-data grids, one page each (routes in ../index.ts); all share AssetGridPage. */
export const StationPage = () => <AssetGridPage config={stationGrid} />;
export const CompanyPage = () => <AssetGridPage config={companyGrid} />;
export const BranchPage = () => <AssetGridPage config={branchGrid} />;
export const FleetPage = () => <AssetGridPage config={fleetGrid} />;
export const LinePage = () => <AssetGridPage config={lineGrid} />;
export const TransformerPage = () => <AssetGridPage config={transformerGrid} />;
export const ManufacturerPage = () => <AssetGridPage config={manufacturerGrid} />;
export const OperatorPage = () => <AssetGridPage config={operatorGrid} />;
export const RegionPage = () => <AssetGridPage config={regionGrid} />;
export const LabelPage = () => <AssetGridPage config={labelGrid} />;
export const ParkingSpacePage = () => <AssetGridPage config={parkingSpaceGrid} />;
export const CameraPage = () => <AssetGridPage config={cameraGrid} />;
export const AlarmCodePage = () => <AssetGridPage config={alarmCodeGrid} />;
export const StopCodePage = () => <AssetGridPage config={stopCodeGrid} />;
export const MaintenancePersonnelPage = () => <AssetGridPage config={maintenancePersonnelGrid} />;
export const PeakTimePage = () => <AssetGridPage config={peakTimeGrid} />;
export const StationFeePage = () => <AssetGridPage config={stationFeeGrid} />;
export const VehiclePage = () => <AssetGridPage config={vehicleGrid} />;
export const CardPage = () => <AssetGridPage config={cardGrid} />;

/** Guns; `?pileId=` (from a host's "guns" link) starts filtered to that host. */
export function GunPage() {
  const [params] = useSearchParams();
  const pileId = Number(params.get('pileId'));
  const config = useMemo(
    () => (Number.isInteger(pileId) && pileId > 0 ? { ...gunGrid, initialSearch: { pileId } } : gunGrid),
    [pileId],
  );
  return <AssetGridPage key={pileId || 'all'} config={config} />;
}
