import { z } from 'zod';
import { AssetsErrorCode, AssetsException } from './assets.exception';
import { CARD_NOT_NORMAL_MESSAGE, cardTransition } from './cards/card-actions';
import { idTagStatusOf } from './cards/id-tag.repository';
import { pictureTypeOf } from './stations/station-pictures.service';
import { gatewayStateOf } from './piles/gateway-registry.repository';
import { hostSelectionSchema } from './piles/piles.dto';
import { createPileSchema } from './piles/piles.definition';
import {
  optionalText,
  requiredCode,
  requiredEnum,
  requiredInt,
  requiredText,
  requiredTime,
} from './shared/fields';

function messages(schema: z.ZodTypeAny, value: unknown): string[] {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((i) => i.message);
}

describe('field schemas speak the messages of business-areas §5', () => {
  it.each([
    [requiredText('Name', 32), undefined, ['Name cannot be empty']],
    [requiredText('Name', 32), null, ['Name cannot be empty']],
    [requiredText('Name', 32), '   ', ['Name cannot be empty']],
    [requiredText('Name', 32), 7, ['Name must be text']],
    [requiredText('Name', 32), 'x'.repeat(33), ['Name must be 1 to 32 characters']],
    [requiredText('VIN', 17, 17), 'ABC', ['VIN must be 17 characters']],
    [
      requiredText('Code', 8, 1, { regex: /^\d+$/, message: 'Code must be digits' }),
      'ab',
      ['Code must be digits'],
    ],
    [requiredInt('Trips', 0, 10), 11, ['Trips must be between 0 and 10']],
    [requiredInt('Trips', 0, 10), 1.5, ['Trips must be a whole number']],
    [requiredInt('Trips', 0, 10), '3', ['Trips must be a number']],
    [requiredCode('Status', [0, 1, 2, 3]), 4, ['Status must be one of 0, 1, 2, 3']],
    [requiredEnum('Type', ['pile', 'car']), '', ['Type cannot be empty']],
    [requiredEnum('Type', ['pile', 'car']), 'bus', ['Type must be one of pile, car']],
    [requiredTime('Opening time'), '24:00', ['Opening time must be a time of day HH:mm']],
    [optionalText('Remark', 4), 'toolong', ['Remark must be 1 to 4 characters']],
  ])('%#: %j -> %j', (schema, value, expected) => {
    expect(messages(schema, value)).toEqual(expected);
  });

  it('optional text stores blank as null and trims', () => {
    expect(optionalText('Remark', 10).parse('  ')).toBeNull();
    expect(optionalText('Remark', 10).parse(undefined)).toBeNull();
    expect(optionalText('Remark', 10).parse(' a ')).toBe('a');
  });

  it('a batch needs at least one host', () => {
    for (const body of [{}, { ids: [] }, { ids: null }])
      expect(messages(hostSelectionSchema, body)).toEqual(['At least one host must be selected']);
  });

  it('a host’s rated power may not exceed its maximum, and its password is write-only text of 16-40', () => {
    const base = {
      name: 'P',
      number: 'P1',
      chargePointId: 'CP-1',
      ocppPassword: 'x'.repeat(16),
      type: 1,
      maxPowerW: 100,
      ratedPowerW: 200,
      deviceStatus: 50,
      gunCount: 1,
      stationId: 1,
      protocolVersion: 'ocpp1.6',
    };
    expect(messages(createPileSchema, base)).toEqual(['Rated power (W) must not exceed maximum power (W)']);
    expect(
      messages(createPileSchema, { ...base, ratedPowerW: 100, ocppPassword: 'with space 0123456' }),
    ).toEqual(['OCPP password may contain only printable ASCII characters without spaces']);
  });
});

describe('charging-card actions (business-areas §4)', () => {
  it.each([
    ['make', 'notMade', 'normal'],
    ['reportLoss', 'normal', 'lost'],
    ['releaseLoss', 'lost', 'normal'],
    ['replace', 'lost', 'normal'],
    ['swap', 'normal', 'normal'],
    ['logout', 'normal', 'cancelled'],
  ] as const)('%s: %s -> %s', (action, from, to) => {
    expect(cardTransition(from, action)).toEqual({ ok: true, to });
  });

  it('a card not in normal status cannot be operated', () => {
    for (const status of ['notMade', 'occupied', 'lost', 'cancelled', 'invalid']) {
      for (const action of ['reportLoss', 'swap', 'logout'] as const) {
        expect(cardTransition(status, action)).toEqual({ ok: false, message: CARD_NOT_NORMAL_MESSAGE });
      }
    }
    expect(CARD_NOT_NORMAL_MESSAGE).toBe('A card not in normal status cannot be operated');
  });
});

describe('station pictures are JPG or PNG by name and by bytes', () => {
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]);
  const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe1, 0]);
  it.each([
    ['a.png', png, 'image/png'],
    ['A.PNG', png, 'image/png'],
    ['a.jpg', jpeg, 'image/jpeg'],
    ['a.jpeg', jpeg, 'image/jpeg'],
    ['a.png', jpeg, undefined],
    ['a.jpg', png, undefined],
    ['a.gif', png, undefined],
    ['png', png, undefined],
  ])('%s -> %s', (name, buffer, expected) => {
    expect(pictureTypeOf({ originalname: name, size: buffer.length, buffer })).toBe(expected);
  });
});

describe('gateway mappings', () => {
  it.each([
    [50, 'active'],
    [1, 'pending'],
    [5, 'disabled'],
    [6, 'disabled'],
  ])('device status %s -> %s', (status, state) => expect(gatewayStateOf(status)).toBe(state));

  it.each([
    ['normal', 'Accepted'],
    ['occupied', 'Accepted'],
    ['lost', 'Blocked'],
    ['cancelled', 'Blocked'],
    ['notMade', 'Invalid'],
    ['invalid', 'Invalid'],
  ])('card status %s -> %s', (status, idTag) => expect(idTagStatusOf(status)).toBe(idTag));
});

describe('AssetsException', () => {
  it('maps every code to a status', () => {
    expect(Object.values(AssetsErrorCode).map((c) => [c, AssetsException.statusOf(c)])).toEqual([
      ['ASSET_NOT_FOUND', 404],
      ['ASSET_REFERENCE_NOT_FOUND', 404],
      ['ASSET_OUT_OF_DATA_SCOPE', 403],
      ['ASSET_DUPLICATE', 409],
      ['ASSET_IN_USE', 409],
      ['ASSET_CHANGED', 409],
      ['ASSET_RULE_VIOLATED', 422],
      ['UNKNOWN_PILE_NOT_FOUND', 404],
      ['STATION_PICTURE_REJECTED', 422],
    ]);
  });
});
