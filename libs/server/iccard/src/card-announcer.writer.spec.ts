import { IcCardChanged, icCardChangedV1Schema, icCardPayloadSchemaOf } from '@voltdepot/shared-events';
import type { EntityManager } from 'typeorm';
import { CardAnnouncerWriter, icCardChangedOf } from './card-announcer.writer';

const row = {
  card_no: 'C0001',
  card_type: 3,
  status: 'lost',
  user_name: 'Han Meimei',
  organization_id: '4',
  sequence: '17',
};
const at = new Date('2026-11-27T08:00:00.000Z');

describe('CardAnnouncerWriter', () => {
  it('announces the card as read in the transaction, with its new sequence, a valid v1 payload', () => {
    const payload = icCardChangedOf(row, at);
    expect(payload).toEqual({
      cardNo: 'C0001',
      cardType: 3,
      status: 'lost',
      customerName: 'Han Meimei',
      organizationId: 4,
      sequence: 17,
      changedAt: '2026-11-27T08:00:00.000Z',
    });
    expect(icCardChangedV1Schema.parse(payload)).toEqual(payload);
    expect(icCardPayloadSchemaOf(IcCardChanged)).toBe(icCardChangedV1Schema);
    expect(icCardChangedOf({ ...row, user_name: null }, at)).not.toHaveProperty('customerName');
  });

  it('writes the event into the outbox through the caller transaction, keyed by the card number', async () => {
    const queries: { sql: string; params: unknown[] }[] = [];
    const m = {
      query: async (sql: string, params: unknown[]) => {
        queries.push({ sql, params });
        return sql.includes('nextval') ? [row] : [];
      },
    } as unknown as EntityManager;
    await new CardAnnouncerWriter(() => at).announce(m, 'C0001');
    expect(queries).toHaveLength(2);
    expect(queries[0].sql).toContain("nextval('ic_card_change_seq')");
    expect(queries[1].sql).toContain('INSERT INTO outbox_event');
    const [envelope] = JSON.parse(String(queries[1].params[0]));
    expect(envelope).toMatchObject({
      topic: 'iccard.cards',
      key: 'C0001',
      type: 'iccard.card.changed',
      version: 1,
      payload: { cardNo: 'C0001', status: 'lost', sequence: 17 },
    });
  });

  it('refuses to announce a card that is not there (the caller rolls back)', async () => {
    const m = { query: async () => [] } as unknown as EntityManager;
    await expect(new CardAnnouncerWriter().announce(m, 'NOPE')).rejects.toThrow('IC card NOPE not found');
  });
});
