import { createEnvelope, type BatchDeliveryContext } from '@voltdepot/server-messaging';
import { IcCardChanged, type EventEnvelope, type IcCardChangedV1 } from '@voltdepot/shared-events';
import type { EntityManager } from 'typeorm';
import { supersedes, type chargingCardOf } from './ic-card-states';
import { IcCardSyncService, icCardSyncSubscription } from './ic-card-sync.consumer';

type ChargingCard = ReturnType<typeof chargingCardOf>;

/** The card table and the gateway's id tags in memory, with the repository's rule. */
function setup(selfNumbersTaken: string[] = []) {
  const cards = new Map<string, ChargingCard & { sequence: number | null }>();
  const idTags = new Map<string, string>();
  const transactions: EntityManager[] = [];
  const repository = {
    syncFromIcCard: jest.fn(async (m: EntityManager, card: ChargingCard) => {
      expect(transactions).toContain(m);
      const existing = cards.get(card.physicalNumber);
      if (existing && !supersedes({ sequence: card.icCardSequence }, existing.sequence))
        return { outcome: 'stale' as const };
      if (!existing && selfNumbersTaken.includes(card.selfNumber)) return { outcome: 'conflict' as const };
      cards.set(card.physicalNumber, { ...card, sequence: card.icCardSequence });
      return { outcome: existing ? ('updated' as const) : ('created' as const), expiryDate: null };
    }),
  };
  const idTagRepository = {
    upsert: jest.fn(async (m: EntityManager, idTag: string, status: string) => {
      expect(transactions).toContain(m);
      idTags.set(idTag, status);
    }),
  };
  const logger = { warn: jest.fn() };
  const skipped: string[] = [];
  const service = new IcCardSyncService(
    async (work) => {
      const m = { id: transactions.length + 1 } as unknown as EntityManager;
      transactions.push(m);
      return work(m);
    },
    repository,
    idTagRepository,
    logger,
    (reason) => skipped.push(reason),
  );
  return {
    skipped,
    service,
    cards,
    idTags,
    logger,
    idTagRepository,
    subscription: icCardSyncSubscription(service, logger),
  };
}

const changed = (cardNo: string, sequence: number, status: IcCardChangedV1['status']) =>
  createEnvelope(IcCardChanged, cardNo, {
    cardNo,
    cardType: 1,
    status,
    customerName: 'Han',
    organizationId: 1,
    sequence,
    changedAt: '2026-11-27T08:00:00.000Z',
  });

const deliver = async (s: ReturnType<typeof setup>, ...envelopes: EventEnvelope[]) => {
  if (!s.subscription.batchHandler) throw new Error('a batch consumer');
  await s.subscription.batchHandler(envelopes, {} as BatchDeliveryContext);
};

describe('IC card sync (assets consumer of iccard.card.changed)', () => {
  it('creates the charging card of a registered card, then follows it: made Accepted, lost Blocked, released Accepted', async () => {
    const s = setup();
    await deliver(s, changed('C1', 1, 'notMade'));
    expect(s.idTags.get('C1')).toBe('Invalid');
    await deliver(s, changed('C1', 2, 'normal'));
    expect(s.idTags.get('C1')).toBe('Accepted');
    await deliver(s, changed('C1', 3, 'lost'));
    expect(s.idTags.get('C1')).toBe('Blocked');
    await deliver(s, changed('C1', 4, 'normal'));
    expect(s.idTags.get('C1')).toBe('Accepted');
    await deliver(s, changed('C1', 5, 'cancelled'));
    expect(s.idTags.get('C1')).toBe('Blocked');
    expect(s.cards.get('C1')).toMatchObject({ status: 'cancelled', sequence: 5 });
  });

  it('never lets an older state overwrite a newer one: in one batch or across batches, replayed or reordered', async () => {
    const s = setup();
    await deliver(s, changed('C1', 3, 'lost'), changed('C1', 2, 'normal'));
    expect(s.idTags.get('C1')).toBe('Blocked');
    await deliver(s, changed('C1', 2, 'normal'));
    await deliver(s, changed('C1', 3, 'lost')); // redelivered
    expect(s.idTags.get('C1')).toBe('Blocked');
    expect(s.idTagRepository.upsert).toHaveBeenCalledTimes(1);
  });

  it('answers the cards whose id tag it changed', async () => {
    const s = setup();
    expect(
      await s.service.apply([
        { cardNo: 'C1', cardType: 1, status: 'normal', organizationId: 1, sequence: 2 },
      ]),
    ).toEqual(['C1']);
    expect(
      await s.service.apply([{ cardNo: 'C1', cardType: 1, status: 'lost', organizationId: 1, sequence: 1 }]),
    ).toEqual([]);
  });

  it('skips, with a warning and a count by reason, a card whose self number another card has, or whose number is too long, and goes on', async () => {
    const s = setup(['C1']);
    await deliver(
      s,
      changed('C1', 1, 'normal'),
      changed('C2345678901234567', 2, 'normal'),
      changed('C3', 3, 'normal'),
    );
    expect([...s.idTags.keys()]).toEqual(['C3']);
    expect(s.logger.warn).toHaveBeenCalledTimes(2);
    expect(s.skipped).toEqual(['selfNumberTaken', 'numberTooLong']);
  });

  it('ignores other events and refuses a malformed payload without retrying it', async () => {
    const s = setup();
    const bad = changed('C1', 1, 'normal');
    (bad.payload as Record<string, unknown>)['status'] = 'stolen';
    await deliver(s, bad, { ...changed('C2', 1, 'normal'), type: 'iccard.card.other' });
    expect(s.idTags.size).toBe(0);
    expect(s.logger.warn).toHaveBeenCalledTimes(1);
  });
});
