import { CARD_STATUSES } from '@voltdepot/shared-contracts';
import { z } from 'zod';
import type { EventDefinition } from './define-event';
import type { EventEnvelope } from './envelope';
import {
  ConnectorStatusChanged,
  DiagnosticsStatusChanged,
  FirmwareStatusChanged,
  MeterValuesReceived,
  PileBooted,
  PileConnected,
  PileDisconnected,
  PileError,
  PileErrorCleared,
  TransactionAbandoned,
  TransactionStarted,
  TransactionStopped,
  TransactionStopRepeated,
  type ConnectorStatusChangedV1,
  type DiagnosticsStatusChangedV1,
  type FirmwareStatusChangedV1,
  type MeterSampleV1,
  type MeterValuesV1,
  type PileAlarmV1,
  type PileBootedV1,
  type PileConnectedV1,
  type PileDisconnectedV1,
  type PileErrorClearedV1,
  type PileErrorV1,
  type TransactionAbandonedV1,
  type TransactionStartedV1,
  type TransactionStoppedV1,
  type TransactionStopRepeatedV1,
} from './ocpp-events';
import { CardAuthorisationChanged, type CardAuthorisationChangedV1 } from './ledger-events';
import { IcCardChanged, type IcCardChangedV1 } from './iccard-events';

/*
 * Runtime schemas of the event payloads, for checking what a producer really puts on the bus (the
 * gateway's event contract test reads it back from the bus). Each is declared against its TypeScript
 * type with `exactSchema<T>()`, which does not compile unless the schema describes exactly T: the same
 * fields, each with the same type and optionality, at every level. Objects are strict, so at run time a
 * field the type does not have is refused too.
 */

type SameKeys<A, B> = [keyof A] extends [keyof B] ? ([keyof B] extends [keyof A] ? true : false) : false;
type Every<R> = false extends R[keyof R] ? false : true;
type FieldsMatch<S, T> = [S] extends [readonly (infer SE)[]]
  ? [T] extends [readonly (infer TE)[]]
    ? SameShape<SE, TE>
    : false
  : [S] extends [object]
    ? [T] extends [object]
      ? SameKeys<S, T> extends true
        ? Every<{ [K in keyof S & keyof T]-?: SameShape<S[K], T[K]> }>
        : false
      : false
    : true;

/**
 * `true` when S and T describe the same values: each assignable to the other, and, for objects (also in
 * arrays), the same keys, each of the same shape. Mutual assignability alone would let a schema have an
 * optional field the type lacks.
 */
export type SameShape<S, T> = [S] extends [T]
  ? [T] extends [S]
    ? FieldsMatch<NonNullable<S>, NonNullable<T>>
    : false
  : false;

/** `exactSchema<T>()(schema)`: the schema, if it describes exactly T; a compile error otherwise. */
export function exactSchema<T>() {
  return <S extends z.ZodTypeAny>(
    schema: S & (SameShape<z.output<S>, T> extends true ? unknown : { 'schema and type differ': T }),
  ): S => schema;
}

/** An instant as the producers write it (`Date.prototype.toISOString`). */
const instant = z.string().datetime();
const integer = z.number().int();

export const pileConnectedV1Schema = exactSchema<PileConnectedV1>()(
  z
    .object({ chargePointId: z.string(), replicaId: z.string(), remoteAddress: z.string().optional() })
    .strict(),
);

export const pileDisconnectedV1Schema = exactSchema<PileDisconnectedV1>()(
  z
    .object({
      chargePointId: z.string(),
      replicaId: z.string(),
      code: integer.optional(),
      reason: z.string().optional(),
    })
    .strict(),
);

export const pileBootedV1Schema = exactSchema<PileBootedV1>()(
  z
    .object({
      chargePointId: z.string(),
      vendor: z.string(),
      model: z.string(),
      firmwareVersion: z.string().optional(),
      serialNumber: z.string().optional(),
      registrationStatus: z.enum(['Accepted', 'Pending', 'Rejected']),
    })
    .strict(),
);

const connectorStatusFields = {
  chargePointId: z.string(),
  connectorId: integer,
  status: z.string(),
  errorCode: z.string(),
  info: z.string().optional(),
  vendorErrorCode: z.string().optional(),
  timestamp: instant,
};

export const connectorStatusChangedV1Schema = exactSchema<ConnectorStatusChangedV1>()(
  z.object(connectorStatusFields).strict(),
);

export const pileAlarmV1Schema = exactSchema<PileAlarmV1>()(
  z
    .object({
      code: z.string(),
      name: z.string(),
      level: integer.min(0).max(3),
      category: z.string(),
      description: z.string().optional(),
    })
    .strict(),
);

export const pileErrorV1Schema = exactSchema<PileErrorV1>()(
  z.object({ ...connectorStatusFields, alarm: pileAlarmV1Schema.optional() }).strict(),
);

export const pileErrorClearedV1Schema = exactSchema<PileErrorClearedV1>()(
  z
    .object({
      chargePointId: z.string(),
      connectorId: integer,
      errorCode: z.string(),
      vendorErrorCode: z.string().optional(),
      since: instant,
      clearedAt: instant,
      status: z.string(),
      currentErrorCode: z.string(),
      alarm: pileAlarmV1Schema.optional(),
    })
    .strict(),
);

export const transactionStartedV1Schema = exactSchema<TransactionStartedV1>()(
  z
    .object({
      chargePointId: z.string(),
      connectorId: integer,
      transactionId: integer,
      idTag: z.string(),
      meterStartWh: integer,
      timestamp: instant,
      reservationId: integer.optional(),
      idTagStatus: z.string(),
    })
    .strict(),
);

export const meterSampleV1Schema = exactSchema<MeterSampleV1>()(
  z
    .object({
      timestamp: instant,
      measurand: z.string(),
      value: z.number(),
      unit: z.string().optional(),
      phase: z.string().optional(),
      location: z.string().optional(),
      context: z.string().optional(),
      flag: z.string().optional(),
    })
    .strict(),
);

export const meterValuesV1Schema = exactSchema<MeterValuesV1>()(
  z
    .object({
      chargePointId: z.string(),
      connectorId: integer,
      transactionId: integer.optional(),
      samples: z.array(meterSampleV1Schema),
      flagged: z.boolean(),
    })
    .strict(),
);

export const transactionStoppedV1Schema = exactSchema<TransactionStoppedV1>()(
  z
    .object({
      chargePointId: z.string(),
      connectorId: integer,
      transactionId: integer,
      idTag: z.string().optional(),
      meterStartWh: integer.optional(),
      meterStopWh: integer,
      energyWh: integer.optional(),
      timestamp: instant,
      reason: z.string(),
      stopKind: z.enum(['normal', 'abnormal']),
      quarantined: z.boolean(),
      afterAbandon: z.boolean().optional(),
    })
    .strict(),
);

export const transactionAbandonedV1Schema = exactSchema<TransactionAbandonedV1>()(
  z
    .object({
      chargePointId: z.string(),
      connectorId: integer,
      transactionId: integer,
      idTag: z.string(),
      meterStartWh: integer,
      lastMeterWh: z.number().optional(),
      lastSampleAt: instant.optional(),
      startedAt: instant,
      closedAt: instant,
      rule: z.enum(['rebooted', 'newStart', 'connectorIdle', 'maxAge']),
    })
    .strict(),
);

export const transactionStopRepeatedV1Schema = exactSchema<TransactionStopRepeatedV1>()(
  z
    .object({
      chargePointId: z.string(),
      connectorId: integer,
      transactionId: integer,
      meterStopWh: integer,
      timestamp: instant,
      reason: z.string(),
      firstMeterStopWh: integer,
      firstTimestamp: instant,
      firstReason: z.string(),
      disagrees: z.boolean(),
    })
    .strict(),
);

export const diagnosticsStatusChangedV1Schema = exactSchema<DiagnosticsStatusChangedV1>()(
  z.object({ chargePointId: z.string(), status: z.string(), timestamp: instant }).strict(),
);

export const firmwareStatusChangedV1Schema = exactSchema<FirmwareStatusChangedV1>()(
  z.object({ chargePointId: z.string(), status: z.string(), timestamp: instant }).strict(),
);

/** A definition with the schema of its payload; the schema must describe that payload type. */
function withSchema<P>(
  definition: EventDefinition<string, P>,
  schema: z.ZodType<P, z.ZodTypeDef, unknown>,
): [string, z.ZodTypeAny] {
  return [`${definition.type}@${definition.version}`, schema];
}

const OCPP_PAYLOAD_SCHEMAS = new Map<string, z.ZodTypeAny>([
  withSchema(PileConnected, pileConnectedV1Schema),
  withSchema(PileDisconnected, pileDisconnectedV1Schema),
  withSchema(PileBooted, pileBootedV1Schema),
  withSchema(ConnectorStatusChanged, connectorStatusChangedV1Schema),
  withSchema(PileError, pileErrorV1Schema),
  withSchema(PileErrorCleared, pileErrorClearedV1Schema),
  withSchema(TransactionStarted, transactionStartedV1Schema),
  withSchema(MeterValuesReceived, meterValuesV1Schema),
  withSchema(TransactionStopped, transactionStoppedV1Schema),
  withSchema(TransactionAbandoned, transactionAbandonedV1Schema),
  withSchema(TransactionStopRepeated, transactionStopRepeatedV1Schema),
  withSchema(DiagnosticsStatusChanged, diagnosticsStatusChangedV1Schema),
  withSchema(FirmwareStatusChanged, firmwareStatusChangedV1Schema),
]);

/** The payload schema of an OCPP event (by its type and version); undefined for any other event. */
export function ocppPayloadSchemaOf(
  envelope: Pick<EventEnvelope, 'type' | 'version'>,
): z.ZodTypeAny | undefined {
  return OCPP_PAYLOAD_SCHEMAS.get(`${envelope.type}@${envelope.version}`);
}

export const cardAuthorisationChangedV1Schema = exactSchema<CardAuthorisationChangedV1>()(
  z
    .object({
      idTag: z.string().min(1),
      accountId: integer.optional(),
      blocked: z.boolean(),
      reason: z.enum(['frozen', 'arrears', 'belowMinimum']).optional(),
      sequence: integer.nonnegative(),
      changedAt: instant,
    })
    .strict(),
);

const LEDGER_PAYLOAD_SCHEMAS = new Map<string, z.ZodTypeAny>([
  withSchema(CardAuthorisationChanged, cardAuthorisationChangedV1Schema),
]);

/** The payload schema of a ledger event (by its type and version); undefined for any other event. */
export function ledgerPayloadSchemaOf(
  envelope: Pick<EventEnvelope, 'type' | 'version'>,
): z.ZodTypeAny | undefined {
  return LEDGER_PAYLOAD_SCHEMAS.get(`${envelope.type}@${envelope.version}`);
}

export const icCardChangedV1Schema = exactSchema<IcCardChangedV1>()(
  z
    .object({
      cardNo: z.string().min(1),
      cardType: integer.min(0).max(3),
      status: z.enum(CARD_STATUSES),
      customerName: z.string().optional(),
      organizationId: integer,
      sequence: integer.nonnegative(),
      changedAt: instant,
    })
    .strict(),
);

const ICCARD_PAYLOAD_SCHEMAS = new Map<string, z.ZodTypeAny>([
  withSchema(IcCardChanged, icCardChangedV1Schema),
]);

/** The payload schema of an IC-card event (by its type and version); undefined for any other event. */
export function icCardPayloadSchemaOf(
  envelope: Pick<EventEnvelope, 'type' | 'version'>,
): z.ZodTypeAny | undefined {
  return ICCARD_PAYLOAD_SCHEMAS.get(`${envelope.type}@${envelope.version}`);
}
