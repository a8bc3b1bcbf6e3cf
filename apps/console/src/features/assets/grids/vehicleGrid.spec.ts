import { describe, expect, it } from 'vitest';
import { boolChoices, toBody, toFormValues } from '../components/fieldModel';
import { assetsEnUS, assetsZhCN } from '../locales';
import { vehicleGrid } from './vehicleGrid';

const field = (name: string) => vehicleGrid.fields.find((f) => f.name === name)!;
/** A key under `assets` looked up in one language's strings. */
const label = (strings: object, key: string) =>
  key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], strings);

describe('vehicle grid: operational status (business-areas §4)', () => {
  it('is a switch in the form, a column and a filter', () => {
    expect(field('operational')).toMatchObject({ kind: 'bool', search: true });
    expect(field('operational').grid).not.toBe(false);
    expect(field('operational').form).not.toBe(false);
  });

  it('calls true "in service" and false "not in service", in both languages', () => {
    const choices = boolChoices(field('operational'));
    expect(choices.map((c) => c.value)).toEqual([true, false]);
    expect(choices.map((c) => label(assetsZhCN, c.label))).toEqual(['运营', '非运营']);
    expect(choices.map((c) => label(assetsEnUS, c.label))).toEqual(['In service', 'Not in service']);
    expect([assetsZhCN.field.operational, assetsEnUS.field.operational]).toEqual([
      '运营状态',
      'Operational status',
    ]);
  });

  it('other yes/no fields keep Yes and No', () => {
    expect(boolChoices(field('dayCharging')).map((c) => label(assetsEnUS, c.label))).toEqual(['Yes', 'No']);
  });

  it('sends the switch as a boolean (off when never touched) and reads it back', () => {
    const values = { vin: 'LVDAB123456789012', plate: '闽A·00001', manufacturerId: 3 };
    expect(toBody(vehicleGrid.fields, { ...values, operational: true })).toMatchObject({ operational: true });
    expect(toBody(vehicleGrid.fields, values)).toMatchObject({ operational: false });
    expect(toFormValues(vehicleGrid.fields, { id: 1, ...values, operational: true })).toMatchObject({
      operational: true,
    });
  });
});
