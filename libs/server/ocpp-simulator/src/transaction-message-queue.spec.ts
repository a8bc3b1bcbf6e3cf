import { TransactionMessageQueue, type Transport } from './transaction-message-queue';

type Sent = { action: string; params: Record<string, unknown>; messageId: string | undefined };

/** A transport whose connection can drop, optionally after the central system has processed the frame. */
function fakeTransport() {
  const sent: Sent[] = [];
  let online = true;
  let loseNextAnswer = false;
  const transport: Transport = {
    online: () => online,
    async send(action, params, messageId) {
      sent.push({ action, params, messageId });
      if (!online) throw new Error('offline');
      if (loseNextAnswer) {
        loseNextAnswer = false;
        online = false;
        throw new Error('connection lost');
      }
      return action === 'StartTransaction' ? { transactionId: 7 } : {};
    },
  };
  return {
    transport,
    sent,
    setOnline: (value: boolean) => (online = value),
    loseNextAnswer: () => (loseNextAnswer = true),
  };
}

describe('TransactionMessageQueue', () => {
  it('holds messages while offline and sends them in order when back online', async () => {
    const t = fakeTransport();
    t.setOnline(false);
    const queue = new TransactionMessageQueue(t.transport, { retryDelayMs: 1 });
    let transactionId: number | undefined;
    const started = queue.enqueue(
      'StartTransaction',
      () => ({ connectorId: 1 }),
      (r) => (transactionId = (r as { transactionId: number }).transactionId),
    );
    const metered = queue.enqueue('MeterValues', () => ({ transactionId }));
    const stopped = queue.enqueue('StopTransaction', () => ({ transactionId }));
    expect(queue.length).toBe(3);
    t.setOnline(true);
    await queue.pump();
    await Promise.all([started, metered, stopped]);
    expect(
      t.sent.filter((s) => s.messageId === undefined).map((s) => [s.action, s.params['transactionId']]),
    ).toEqual([
      ['StartTransaction', undefined],
      ['MeterValues', 7],
      ['StopTransaction', 7],
    ]);
  });

  it.each([
    [true, 'the same message id'],
    [false, 'a new message id'],
  ])('retransmits a message whose answer was lost (sameMessageIdOnRetry=%s: %s)', async (same) => {
    const t = fakeTransport();
    const queue = new TransactionMessageQueue(t.transport, { retryDelayMs: 1, sameMessageIdOnRetry: same });
    t.loseNextAnswer();
    const done = queue.enqueue('StopTransaction', () => ({ transactionId: 1 }));
    await new Promise((r) => setTimeout(r, 5));
    expect(queue.length).toBe(1);
    t.setOnline(true);
    await queue.pump();
    await done;
    expect(t.sent).toHaveLength(2);
    if (same) {
      expect(t.sent[0].messageId).toEqual(expect.any(String));
      expect(t.sent[1].messageId).toBe(t.sent[0].messageId);
    } else {
      expect(t.sent.map((s) => s.messageId)).toEqual([undefined, undefined]);
    }
  });

  it('drops a message the central system keeps answering with a CallError, after maxAttempts', async () => {
    let calls = 0;
    const queue = new TransactionMessageQueue(
      {
        online: () => true,
        send: async () => {
          calls++;
          throw Object.assign(new Error('nope'), { rpcErrorCode: 'InternalError' });
        },
      },
      { retryDelayMs: 1, maxAttempts: 3 },
    );
    await expect(queue.enqueue('MeterValues', () => ({}))).rejects.toThrow('nope');
    expect(calls).toBe(3);
    expect(queue.length).toBe(0);
  });
});
