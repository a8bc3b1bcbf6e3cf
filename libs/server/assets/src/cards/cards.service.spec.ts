import { type AuthPrincipal, ValidationException } from '@voltdepot/server-core';
import { InMemoryTable, inMemoryTransaction } from '@voltdepot/server-testing';
import { AssetsErrorCode, AssetsException } from '../assets.exception';
import type { CardAction } from './card-actions';
import { CardsService, type CardGrid, type CardStore } from './cards.service';
import type { IdTagStatus } from './id-tag.repository';

type Card = { id: number; physicalNumber: string; status: string; expiryDate: string | null };
type IdTag = { id: number; idTag: string; status: IdTagStatus; expiryDate: string | null };

/** The card table and the gateway's id tags, with the grid's read of a visible card. */
class FakeCards implements CardGrid, CardStore {
  readonly cards = new InMemoryTable<Card>({ charging_card_physical_number_uq: (c) => c.physicalNumber });
  readonly idTags = new InMemoryTable<IdTag>({ id_tag_pk: (t) => t.idTag });
  /** Someone else's change lands between our read and our write. */
  changedMeanwhile = false;

  async scopeOf() {
    return { rootIds: [1], pathPatterns: ['/1/%'] };
  }
  async visible(_scope: unknown, id: number) {
    const card = this.cards.get(id);
    if (!card) throw new AssetsException(AssetsErrorCode.NotFound, `Charging card ${id} does not exist`);
    return card;
  }
  translate(error: unknown) {
    return error;
  }
  transaction<T>(work: (m: never) => Promise<T>): Promise<T> {
    return inMemoryTransaction([this.cards, this.idTags], work);
  }
  async transition(_m: unknown, id: number, from: string, to: string, physicalNumber: string | undefined) {
    if (this.changedMeanwhile || this.cards.get(id)?.status !== from) return false;
    this.cards.update(id, { status: to, ...(physicalNumber ? { physicalNumber } : {}) });
    return true;
  }
  async upsert(_m: unknown, idTag: string, status: IdTagStatus, expiryDate: string | null) {
    const found = this.idTags.find((t) => t.idTag === idTag);
    if (found) this.idTags.update(found.id, { status, expiryDate });
    else this.idTags.insert({ idTag, status, expiryDate });
  }

  tagStatus(idTag: string) {
    return this.idTags.find((t) => t.idTag === idTag)?.status;
  }
}

const me = { userId: 1, username: 'admin' } as AuthPrincipal;
const EXPIRY = '2027-12-31T16:00:00.000Z';

function setup(status: string) {
  const fake = new FakeCards();
  const service = new CardsService(fake, fake, fake, fake);
  const { id } = fake.cards.insert({ physicalNumber: 'PN0001', status, expiryDate: EXPIRY });
  const act = (action: CardAction, body: { physicalNumber?: string } = {}) =>
    service.act(me, id, action, body);
  return { fake, act, id };
}

describe('CardsService.act', () => {
  it.each<[CardAction, string, string, IdTagStatus]>([
    ['make', 'notMade', 'normal', 'Accepted'],
    ['reportLoss', 'normal', 'lost', 'Blocked'],
    ['releaseLoss', 'lost', 'normal', 'Accepted'],
    ['logout', 'normal', 'cancelled', 'Blocked'],
  ])('%s moves a %s card to %s and tells the gateway its tag is %s', async (action, from, to, tag) => {
    const { fake, act, id } = setup(from);
    await expect(act(action)).resolves.toMatchObject({ status: to });
    expect(fake.cards.get(id)?.status).toBe(to);
    expect(fake.idTags.filter()).toEqual([
      expect.objectContaining({ idTag: 'PN0001', status: tag, expiryDate: EXPIRY }),
    ]);
  });

  it.each<[CardAction, string]>([
    ['replace', 'lost'],
    ['swap', 'normal'],
  ])(
    '%s gives a %s card its new physical number: the old one is blocked, the new one accepted',
    async (action, from) => {
      const { fake, act, id } = setup(from);
      await act(action, { physicalNumber: 'PN0002' });
      expect(fake.cards.get(id)).toMatchObject({ physicalNumber: 'PN0002', status: 'normal' });
      expect(fake.tagStatus('PN0001')).toBe('Blocked');
      expect(fake.tagStatus('PN0002')).toBe('Accepted');
    },
  );

  it.each<[string, CardAction, string, { physicalNumber?: string }, string]>([
    ['a replacement without a new number', 'replace', 'lost', {}, 'Physical number cannot be empty'],
    [
      'a swap to the same number',
      'swap',
      'normal',
      { physicalNumber: 'PN0001' },
      'must differ from the current one',
    ],
    [
      'a number for an action that keeps it',
      'reportLoss',
      'normal',
      { physicalNumber: 'PN0009' },
      'only to replace or swap',
    ],
  ])('refuses %s (400 on physicalNumber), changing nothing', async (_case, action, from, body, message) => {
    const { fake, act } = setup(from);
    const refused = act(action, body);
    await expect(refused).rejects.toBeInstanceOf(ValidationException);
    await expect(refused).rejects.toMatchObject({
      fields: [{ field: 'physicalNumber', message: expect.stringContaining(message) }],
    });
    expect(fake.cards.get(1)?.status).toBe(from);
    expect(fake.idTags.size).toBe(0);
  });

  it('refuses an action the card status does not allow (422 on status)', async () => {
    const { fake, act } = setup('lost');
    await expect(act('swap', { physicalNumber: 'PN0002' })).rejects.toMatchObject({
      code: AssetsErrorCode.RuleViolated,
      httpStatus: 422,
      details: [{ field: 'status', message: 'A card not in normal status cannot be operated' }],
    });
    expect(fake.idTags.size).toBe(0);
  });

  it('refuses with 409 when the card changed between reading and writing, touching no id tag', async () => {
    const { fake, act, id } = setup('normal');
    fake.changedMeanwhile = true;
    await expect(act('reportLoss')).rejects.toMatchObject({
      code: AssetsErrorCode.Conflict,
      httpStatus: 409,
    });
    expect(fake.cards.get(id)?.status).toBe('normal');
    expect(fake.idTags.size).toBe(0);
  });

  it('keeps card and id tags as they were when the new number is taken', async () => {
    const { fake, act, id } = setup('normal');
    fake.cards.insert({ physicalNumber: 'PN0002', status: 'normal', expiryDate: null });
    await expect(act('swap', { physicalNumber: 'PN0002' })).rejects.toMatchObject({
      constraint: 'charging_card_physical_number_uq',
    });
    expect(fake.cards.get(id)?.physicalNumber).toBe('PN0001');
    expect(fake.idTags.size).toBe(0);
  });
});
