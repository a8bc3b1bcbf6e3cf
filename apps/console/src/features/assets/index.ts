import type { FeatureRoutes } from '../../app/router/knownRoutes';
import { lazyPage } from '../../app/router/loadChunk';

const basic = () => import('./pages/BasicPages');

/** Basic data (business-areas §2 "Basic information"): the seeded `basic` menus and the spec's two routes. */
export const assetsRoutes = {
  '/basic/station': lazyPage('assets', basic, 'StationPage'),
  '/basic/host': lazyPage('assets', () => import('./pages/HostPage'), 'HostPage'),
  '/basic/gun': lazyPage('assets', basic, 'GunPage'),
  '/basic/vehicle': lazyPage('assets', basic, 'VehiclePage'),
  '/basic/cardConfig': lazyPage('assets', basic, 'CardPage'),
  '/basic/company': lazyPage('assets', basic, 'CompanyPage'),
  '/basic/branch': lazyPage('assets', basic, 'BranchPage'),
  '/basic/fleet': lazyPage('assets', basic, 'FleetPage'),
  '/basic/line': lazyPage('assets', basic, 'LinePage'),
  '/basic/transformer': lazyPage('assets', basic, 'TransformerPage'),
  '/basic/manufacturer': lazyPage('assets', basic, 'ManufacturerPage'),
  '/basic/operator': lazyPage('assets', basic, 'OperatorPage'),
  '/basic/region': lazyPage('assets', basic, 'RegionPage'),
  '/basic/label': lazyPage('assets', basic, 'LabelPage'),
  '/basic/parkingSpace': lazyPage('assets', basic, 'ParkingSpacePage'),
  '/basic/camera': lazyPage('assets', basic, 'CameraPage'),
  '/basic/alarmCode': lazyPage('assets', basic, 'AlarmCodePage'),
  '/basic/stopCode': lazyPage('assets', basic, 'StopCodePage'),
  '/basic/maintenancePersonnel': lazyPage('assets', basic, 'MaintenancePersonnelPage'),
  '/basic/peakTime': lazyPage('assets', basic, 'PeakTimePage'),
  '/basic/stationFee': lazyPage('assets', basic, 'StationFeePage'),
  '/station/ChargEquipManage/index': lazyPage('assets', () => import('./pages/HostPage'), 'HostPage'),
  '/station/stationInfoManage/components/addForm': lazyPage(
    'assets',
    () => import('./pages/StationInfoPage'),
    'StationInfoPage',
  ),
} satisfies FeatureRoutes;
