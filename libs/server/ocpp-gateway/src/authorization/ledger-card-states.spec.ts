import { CardAuthorisationChanged, type EventEnvelope } from '@voltdepot/shared-events';
import { latestPerCard, supersedes, type LedgerCardState } from './ledger-card-states';
import { ledgerCardsSubscription } from './ledger-cards.consumer';

const state = (idTag: string, sequence: number, blocked: boolean): LedgerCardState => ({
  idTag,
  sequence,
  blocked,
  ...(blocked ? { reason: 'belowMinimum' as const } : {}),
  accountId: 1,
  changedAt: '2026-06-01T08:00:00.000Z',
});

describe('the ledger card states: last writer wins by sequence', () => {
  it.each([
    ['nothing stored', state('A', 1, true), undefined, true],
    ['a higher sequence', state('A', 5, false), { sequence: 4 }, true],
    ['the same sequence (a redelivery)', state('A', 5, false), { sequence: 5 }, false],
    ['a lower sequence (reordered or replayed)', state('A', 3, false), { sequence: 5 }, false],
  ])('%s: applied %s', (_what, candidate, stored, applied) => {
    expect(supersedes(candidate, stored)).toBe(applied);
  });

  it('keeps the highest sequence of each card in a batch, whatever the order', () => {
    const batch = [state('A', 7, true), state('B', 2, true), state('A', 9, false), state('A', 8, true)];
    expect(latestPerCard(batch)).toEqual([state('A', 9, false), state('B', 2, true)]);
    expect(latestPerCard([...batch].reverse())).toEqual(
      expect.arrayContaining([state('A', 9, false), state('B', 2, true)]),
    );
  });
});

describe('ledgerCardsSubscription', () => {
  const envelope = (payload: unknown, type: string = CardAuthorisationChanged.type): EventEnvelope => ({
    eventId: `e-${Math.random()}`,
    topic: CardAuthorisationChanged.topic,
    key: 'A',
    type,
    version: 1,
    occurredAt: '2026-06-01T08:00:00.000Z',
    correlationId: 'c',
    payload,
  });

  it('stores the latest state per card, skips other and malformed events, and expires the applied cards', async () => {
    const recorded: LedgerCardState[][] = [];
    const expired: string[] = [];
    const warnings: unknown[] = [];
    const options = ledgerCardsSubscription({
      repository: {
        recordLedgerStates: async (states) => {
          recorded.push([...states]);
          return states.filter((s) => s.idTag === 'A').map((s) => s.idTag); // B was newer in the table
        },
      },
      idTags: { expire: (idTag) => void expired.push(idTag) },
      logger: { warn: ((...args: unknown[]) => void warnings.push(args)) as never },
    });
    await options.batchHandler!(
      [
        envelope(state('A', 1, true)),
        envelope(state('B', 2, true)),
        envelope(state('A', 3, false)),
        envelope({ idTag: 'C', blocked: 'yes' }),
        envelope({ whatever: true }, 'order.settled'),
      ],
      { attempt: 1, group: 'g', position: '0', partition: 'p' },
    );
    expect(recorded).toEqual([[state('A', 3, false), state('B', 2, true)]]);
    expect(expired).toEqual(['A']);
    expect(warnings).toHaveLength(1);
  });
});
