import type { EventEnvelope } from './envelope';

/**
 * A versioned event type bound to its topic. The payload type travels with it so that
 * publishers and consumers agree at compile time.
 */
export type EventDefinition<TType extends string, TPayload> = {
  readonly type: TType;
  readonly version: number;
  readonly topic: string;
  /** Narrow an envelope to this definition's payload type. */
  is(envelope: EventEnvelope): envelope is EventEnvelope<TPayload, TType>;
};

export function defineEvent<TPayload>() {
  return <TType extends string>(
    topic: string,
    type: TType,
    version: number,
  ): EventDefinition<TType, TPayload> => ({
    type,
    version,
    topic,
    is: (envelope: EventEnvelope): envelope is EventEnvelope<TPayload, TType> =>
      envelope.type === type && envelope.version === version,
  });
}

export type PayloadOf<D> = D extends EventDefinition<string, infer P> ? P : never;
