import type { Dayjs } from 'dayjs';
import { describe, expect, it } from 'vitest';
import { withBrowserTimeZone } from '../../../test/browserTimeZone';
import { assetsEnUS, assetsZhCN } from '../locales';
import { refLabel, toBody, toFormValues } from '../components/fieldModel';
import { cardGrid } from './cardGrid';

withBrowserTimeZone('UTC');

const field = (name: string) => cardGrid.fields.find((f) => f.name === name)!;

describe('card grid: the bus a card is issued to', () => {
  it('picks the vehicle in the form from the vehicles, shown by plate, and lists its plate', () => {
    const vehicle = field('vehicleId');
    expect(vehicle).toMatchObject({ kind: 'ref', view: 'vehiclePlate', ref: { kind: 'vehicle' } });
    expect(vehicle.required).toBeFalsy();
    expect(vehicle.grid).not.toBe(false);
    expect(refLabel(vehicle.ref!, { id: 7, plate: '皖A·D1201', selfNumber: '1201' })).toBe(
      '皖A·D1201 (1201)',
    );
    expect(refLabel(vehicle.ref!, { id: 8, plate: '皖A·D1202', selfNumber: null })).toBe('皖A·D1202');
  });

  it('filters the list by part of the plate, a search field only', () => {
    expect(field('vehiclePlate')).toMatchObject({ kind: 'text', search: true, grid: false, form: false });
  });

  it('sends vehicleId in the body (null when none) and reads it back into the form', () => {
    const values = { physicalNumber: 'A1', type: 0, selfNumber: 'S1', cardholder: 'Wang', status: 'normal' };
    expect(toBody(cardGrid.fields, { ...values, vehicleId: 7 })).toMatchObject({ vehicleId: 7 });
    expect(toBody(cardGrid.fields, values)).toMatchObject({ vehicleId: null });
    expect(toBody(cardGrid.fields, values)).not.toHaveProperty('vehiclePlate');
    const row = { id: 1, ...values, vehicleId: 7, vehiclePlate: '皖A·D1201' };
    expect(toFormValues(cardGrid.fields, row)).toMatchObject({ vehicleId: 7 });
  });

  it('shows the expiry in business time in the form and sends it back with the business offset', () => {
    // The browser (this process) is in UTC; 15:59:59 UTC is 23:59:59 in Asia/Shanghai.
    const values = toFormValues(cardGrid.fields, { id: 1, expiryDate: '2026-12-31T15:59:59Z' });
    const picked = values['expiryDate'] as Dayjs;
    expect(picked.format('YYYY-MM-DD HH:mm:ss')).toBe('2026-12-31 23:59:59');
    expect(toBody(cardGrid.fields, { expiryDate: picked })).toMatchObject({
      expiryDate: '2026-12-31T23:59:59+08:00',
    });
  });

  it('has both languages for the new labels', () => {
    expect([assetsZhCN.field.vehicle, assetsZhCN.field.vehiclePlate]).toEqual(['所属车辆', '车辆车牌号']);
    expect([assetsEnUS.field.vehicle, assetsEnUS.field.vehiclePlate]).toEqual(['Vehicle', 'Vehicle plate']);
  });
});
