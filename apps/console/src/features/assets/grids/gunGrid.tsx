import type { GridConfig } from '../components/AssetGridPage';
import { QrCodeButton } from '../components/QrCodeButton';
import { BASIC_MENUS } from '../permissions';
import { pileRefSpec, stationRefSpec } from './commonFields';

/** Guns: §5 name, channel number and QR code must be filled; connector types 1 to 5 and 255. */
export const gunGrid: GridConfig = {
  kind: 'gun',
  menu: BASIC_MENUS.gun,
  title: 'gun',
  importable: true,
  scrollX: 1500,
  fields: [
    {
      name: 'stationId',
      label: 'station',
      kind: 'ref',
      ref: stationRefSpec,
      form: false,
      grid: false,
      search: true,
    },
    {
      name: 'pileId',
      label: 'host',
      kind: 'ref',
      required: true,
      ref: pileRefSpec,
      view: 'pileName',
      search: true,
    },
    { name: 'name', label: 'gunName', kind: 'text', required: true, text: { max: 32 }, search: true },
    { name: 'channelNumber', label: 'channelNumber', kind: 'int', required: true, min: 1, max: 16 },
    {
      name: 'qrCode',
      label: 'qrCode',
      kind: 'text',
      required: true,
      text: { max: 128 },
      search: true,
      wide: true,
    },
    {
      name: 'connectorType',
      label: 'connectorType',
      kind: 'dict',
      dict: 'connector_type',
      numeric: true,
      required: true,
    },
    { name: 'terminalName', label: 'terminalName', kind: 'text', text: { max: 32 } },
    { name: 'maxVoltageV', label: 'maxVoltageV', kind: 'int', min: 0, max: 2000, grid: false },
    { name: 'minVoltageV', label: 'minVoltageV', kind: 'int', min: 0, max: 2000, grid: false },
    { name: 'ratedVoltageV', label: 'ratedVoltageV', kind: 'int', min: 0, max: 2000 },
    { name: 'ratedCurrentA', label: 'ratedCurrentA', kind: 'int', min: 0, max: 2000 },
    { name: 'ratedPowerW', label: 'ratedPowerW', kind: 'int', min: 0, max: 10_000_000 },
    { name: 'bmsPower', label: 'bmsPower', kind: 'dict', dict: 'bms_power', numeric: true, grid: false },
    {
      name: 'groundLockStatus',
      label: 'groundLockStatus',
      kind: 'dict',
      dict: 'ground_lock_status',
      numeric: true,
    },
    {
      name: 'parkingPlaceType',
      label: 'parkingPlaceType',
      kind: 'dict',
      dict: 'parking_space_type',
      grid: false,
    },
  ],
  rowActions: (row) => [<QrCodeButton key="qr" value={String(row['qrCode'])} title={String(row['name'])} />],
};
