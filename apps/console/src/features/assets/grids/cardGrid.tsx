import type { GridConfig } from '../components/AssetGridPage';
import type { AssetRow } from '../types';
import { BASIC_MENUS } from '../permissions';
import { PATTERNS } from '../rules/formRules';
import { CardActions } from './CardActions';

/** A vehicle option by its plate (typing part of it narrows the list), with its self number. */
const vehicleOption = (row: AssetRow) =>
  row['selfNumber'] ? `${String(row['plate'])} (${String(row['selfNumber'])})` : String(row['plate']);

/** Charging cards: §5 physical number, type, self number and cardholder required; type codes 0 to 3. */
export const cardGrid: GridConfig = {
  kind: 'card',
  menu: BASIC_MENUS.cardConfig,
  title: 'cardConfig',
  importable: true,
  fields: [
    {
      name: 'physicalNumber',
      label: 'physicalNumber',
      kind: 'text',
      required: true,
      text: { max: 16, pattern: PATTERNS.physicalNumber },
      search: true,
    },
    {
      name: 'type',
      label: 'cardType',
      kind: 'dict',
      dict: 'card_type',
      numeric: true,
      required: true,
      search: true,
    },
    {
      name: 'selfNumber',
      label: 'selfNumber',
      kind: 'text',
      required: true,
      text: { max: 16 },
      search: true,
    },
    {
      name: 'cardholder',
      label: 'cardholder',
      kind: 'text',
      required: true,
      text: { max: 30 },
      search: true,
    },
    {
      // The bus the card is issued to: what monitoring and orders show for the card's sessions.
      name: 'vehicleId',
      label: 'vehicle',
      kind: 'ref',
      view: 'vehiclePlate',
      ref: { kind: 'vehicle', labelOf: vehicleOption },
    },
    { name: 'vehiclePlate', label: 'vehiclePlate', kind: 'text', grid: false, form: false, search: true },
    {
      name: 'status',
      label: 'cardStatus',
      kind: 'dict',
      dict: 'card_status',
      required: true,
      initial: 'notMade',
      search: true,
    },
    { name: 'expiryDate', label: 'expiryDate', kind: 'datetime' },
    { name: 'description', label: 'description', kind: 'textarea', text: { max: 255 }, grid: false },
  ],
  rowActions: (row, ctx) => [<CardActions key="card-actions" row={row} onDone={ctx.reload} />],
};
