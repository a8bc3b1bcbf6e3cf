import type { GridConfig } from '../components/AssetGridPage';
import { StationDrawer } from '../components/StationForm';
import { BASIC_MENUS } from '../permissions';
import { stationFields } from './stationFields';

/** Stations: the list, and add/edit in a drawer with the map picker, labels, pictures and price plan. */
export const stationGrid: GridConfig = {
  kind: 'station',
  menu: BASIC_MENUS.station,
  title: 'station',
  deleteConfirm: 'station.deleteConfirm',
  importable: true,
  scrollX: 1400,
  fields: stationFields,
  customForm: (props) => <StationDrawer {...props} />,
};
