import type { CardReaderRequest } from '@voltdepot/shared-contracts';
import { SimulatedReader } from './simulated-reader';

let keys = 0;
function aReader() {
  return new SimulatedReader(undefined, () => `key-${++keys}`);
}

const read = (extra: Partial<CardReaderRequest> = {}) =>
  ({ id: 'r', type: 'read', ...extra }) as CardReaderRequest;
const make = (chip: 'CPU' | 'M1', cardNo: string): CardReaderRequest => ({
  id: 'm',
  type: 'make',
  chip,
  cardNo,
});
const write = (purpose: 'recharge' | 'refund', cardNo: string, balanceFen: number): CardReaderRequest => ({
  id: 'w',
  type: 'write',
  purpose,
  cardNo,
  balanceFen,
});

const error = (code: string) => ({ ok: false, error: { code, detail: expect.any(String) } });

describe('SimulatedReader', () => {
  it('makes a blank card, then reads and writes it', () => {
    const reader = aReader();
    expect(reader.putCard('04a1b2c3', { chip: 'CPU' })).toBeUndefined();
    expect(reader.insert('04A1B2C3')).toBe(true);
    const card = { chip: 'CPU', uid: '04A1B2C3', cardNo: 'C0001' };
    expect(reader.handle(make('CPU', 'C0001'))).toEqual({
      id: 'm',
      ok: true,
      card: { ...card, balanceFen: 0 },
    });
    expect(reader.handle(write('recharge', 'C0001', 5_000))).toEqual({
      id: 'w',
      ok: true,
      card: { ...card, balanceFen: 5_000 },
    });
    expect(reader.handle(read({ chip: 'CPU', expectCardNo: 'C0001' } as never))).toEqual({
      id: 'r',
      ok: true,
      card: { ...card, balanceFen: 5_000 },
    });
    // The key is kept per card and never shown.
    expect(reader.snapshot().keys).toEqual({ C0001: expect.stringMatching(/^key-/) });
    expect(reader.cards().cards[0]).not.toHaveProperty('key');
  });

  it.each<[string, (reader: SimulatedReader) => void, CardReaderRequest, string]>([
    ['no card: read', () => undefined, read(), 'abnormalCardReading'],
    ['no card: make', () => undefined, make('M1', 'M1'), 'abnormalCardReading'],
    ['no card: write', () => undefined, write('refund', 'C1', 0), 'abnormalCardReading'],
    [
      'a used card made again',
      (r) => madeCard(r, 'CPU', 'C0001'),
      make('CPU', 'C0002'),
      'abnormalCardReading',
    ],
    [
      'a CPU read of an M1 card',
      (r) => madeCard(r, 'M1', 'M0001'),
      read({ chip: 'CPU' } as never),
      'readCpuCardFailed',
    ],
    [
      'an M1 read of a CPU card',
      (r) => madeCard(r, 'CPU', 'C0001'),
      read({ chip: 'M1' } as never),
      'readFailed',
    ],
    ['a CPU make on an M1 card', (r) => blankCard(r, 'M1'), make('CPU', 'C0001'), 'makeCpuCardFailed'],
    ['a blank card read', (r) => blankCard(r, 'CPU'), read({ chip: 'CPU' } as never), 'readCpuCardFailed'],
    ['a blank card written', (r) => blankCard(r, 'M1'), write('recharge', 'M1', 1), 'rechargeFailed'],
    ['keys that fail', (r) => blankCard(r, 'CPU', ['keyInit']), make('CPU', 'C0001'), 'cardKeyInitFailed'],
    [
      'a CPU card that fails to print',
      (r) => blankCard(r, 'CPU', ['make']),
      make('CPU', 'C1'),
      'makeCpuCardFailed',
    ],
    [
      'an M1 card that fails to write',
      (r) => blankCard(r, 'M1', ['make']),
      make('M1', 'M1'),
      'makeM1CardFailed',
    ],
    [
      'a card that does not answer',
      (r) => madeCard(r, 'CPU', 'C1', ['read']),
      read({ chip: 'CPU' } as never),
      'readCpuCardFailed',
    ],
    [
      'a recharge write that fails',
      (r) => madeCard(r, 'CPU', 'C1', ['write']),
      write('recharge', 'C1', 1),
      'rechargeFailed',
    ],
    [
      'a refund write that fails',
      (r) => madeCard(r, 'M1', 'M1', ['write']),
      write('refund', 'M1', 0),
      'refundFailed',
    ],
    [
      'another card read as this one',
      (r) => madeCard(r, 'CPU', 'C1'),
      read({ expectCardNo: 'C2' } as never),
      'idMismatch',
    ],
    [
      'another card written as this one',
      (r) => madeCard(r, 'CPU', 'C1'),
      write('refund', 'C2', 0),
      'idMismatch',
    ],
    [
      'a card made by another operator (its own key)',
      (r) => {
        r.putCard('0A0B0C0D', { chip: 'M1', cardNo: 'X1', key: 'theirs' });
        r.insert('0A0B0C0D');
      },
      read(),
      'readFailed',
    ],
    [
      'a card number already on another card',
      (r) => {
        madeCard(r, 'CPU', 'C1');
        blankCard(r, 'CPU');
      },
      make('CPU', 'C1'),
      'makeCpuCardFailed',
    ],
  ])('%s: %s', (_name, arrange, request, code) => {
    const reader = aReader();
    arrange(reader);
    expect(reader.handle(request)).toMatchObject(error(code));
  });

  it('a failed write leaves the balance as it was', () => {
    const reader = aReader();
    madeCard(reader, 'CPU', 'C1', ['write']);
    reader.handle(write('recharge', 'C1', 9_999));
    expect(reader.cards().cards[0]?.balanceFen).toBe(0);
  });

  it.each([
    ['bad uid', 'xyz', { chip: 'CPU' }],
    ['unknown chip', '01020304', { chip: 'NFC' }],
    ['negative balance', '01020304', { chip: 'CPU', balanceFen: -1 }],
    ['unknown fault', '01020304', { chip: 'CPU', faults: ['melt'] }],
    ['card number with spaces', '01020304', { chip: 'CPU', cardNo: 'C 1' }],
  ])('putCard refuses a %s', (_name, uid, input) => {
    expect(aReader().putCard(uid, input)).toEqual(expect.any(String));
  });

  it('inserts only known cards, and removes', () => {
    const reader = aReader();
    expect(reader.insert('01020304')).toBe(false);
    blankCard(reader, 'CPU');
    expect(reader.cards().slot).toBe('01020304');
    reader.remove();
    expect(reader.cards().slot).toBeNull();
  });
});

function blankCard(reader: SimulatedReader, chip: 'CPU' | 'M1', faults: string[] = []) {
  expect(reader.putCard('01020304', { chip, faults })).toBeUndefined();
  reader.insert('01020304');
}

function madeCard(reader: SimulatedReader, chip: 'CPU' | 'M1', cardNo: string, faults: string[] = []) {
  expect(reader.putCard('A1A2A3A4', { chip })).toBeUndefined();
  reader.insert('A1A2A3A4');
  expect(reader.handle(make(chip, cardNo))).toMatchObject({ ok: true });
  reader.putCard('A1A2A3A4', { ...reader.snapshot().cards['A1A2A3A4'], faults });
}
