import type {
  AuthorizationStatus,
  AvailabilityStatus,
  AvailabilityType,
  ChargePointErrorCode,
  ChargePointStatus,
  ClearCacheStatus,
  ConfigurationStatus,
  DataTransferStatus,
  DiagnosticsStatus,
  FirmwareStatus,
  Location,
  Measurand,
  MessageTrigger,
  Phase,
  ReadingContext,
  RegistrationStatus,
  RemoteStartStopStatus,
  ResetStatus,
  ResetType,
  StopReason,
  TriggerMessageStatus,
  UnitOfMeasure,
  UnlockStatus,
  ValueFormat,
} from './enums';

/** OCPP 1.6J payloads (the `.req` / `.conf` JSON schemas). Date-times are ISO-8601 strings. */

export type IdTagInfo = { status: AuthorizationStatus; expiryDate?: string; parentIdTag?: string };

// --- Charge point -> central system ---------------------------------------------------------

export type BootNotificationRequest = {
  chargePointVendor: string;
  chargePointModel: string;
  chargePointSerialNumber?: string;
  chargeBoxSerialNumber?: string;
  firmwareVersion?: string;
  iccid?: string;
  imsi?: string;
  meterType?: string;
  meterSerialNumber?: string;
};
export type BootNotificationResponse = { status: RegistrationStatus; currentTime: string; interval: number };

export type HeartbeatRequest = Record<string, never>;
export type HeartbeatResponse = { currentTime: string };

export type StatusNotificationRequest = {
  connectorId: number;
  errorCode: ChargePointErrorCode;
  info?: string;
  status: ChargePointStatus;
  timestamp?: string;
  vendorId?: string;
  vendorErrorCode?: string;
};
export type StatusNotificationResponse = Record<string, never>;

export type AuthorizeRequest = { idTag: string };
export type AuthorizeResponse = { idTagInfo: IdTagInfo };

export type SampledValue = {
  value: string;
  context?: ReadingContext;
  format?: ValueFormat;
  measurand?: Measurand;
  phase?: Phase;
  location?: Location;
  unit?: UnitOfMeasure;
};
export type MeterValue = { timestamp: string; sampledValue: SampledValue[] };

export type StartTransactionRequest = {
  connectorId: number;
  idTag: string;
  meterStart: number;
  reservationId?: number;
  timestamp: string;
};
export type StartTransactionResponse = { idTagInfo: IdTagInfo; transactionId: number };

export type MeterValuesRequest = { connectorId: number; transactionId?: number; meterValue: MeterValue[] };
export type MeterValuesResponse = Record<string, never>;

export type StopTransactionRequest = {
  idTag?: string;
  meterStop: number;
  timestamp: string;
  transactionId: number;
  reason?: StopReason;
  transactionData?: MeterValue[];
};
export type StopTransactionResponse = { idTagInfo?: IdTagInfo };

export type DataTransferRequest = { vendorId: string; messageId?: string; data?: string };
export type DataTransferResponse = { status: DataTransferStatus; data?: string };

export type DiagnosticsStatusNotificationRequest = { status: DiagnosticsStatus };
export type DiagnosticsStatusNotificationResponse = Record<string, never>;

export type FirmwareStatusNotificationRequest = { status: FirmwareStatus };
export type FirmwareStatusNotificationResponse = Record<string, never>;

/** Request and response type of every charge-point-initiated action. */
export type ChargePointMessages = {
  Authorize: [AuthorizeRequest, AuthorizeResponse];
  BootNotification: [BootNotificationRequest, BootNotificationResponse];
  DataTransfer: [DataTransferRequest, DataTransferResponse];
  DiagnosticsStatusNotification: [
    DiagnosticsStatusNotificationRequest,
    DiagnosticsStatusNotificationResponse,
  ];
  FirmwareStatusNotification: [FirmwareStatusNotificationRequest, FirmwareStatusNotificationResponse];
  Heartbeat: [HeartbeatRequest, HeartbeatResponse];
  MeterValues: [MeterValuesRequest, MeterValuesResponse];
  StartTransaction: [StartTransactionRequest, StartTransactionResponse];
  StatusNotification: [StatusNotificationRequest, StatusNotificationResponse];
  StopTransaction: [StopTransactionRequest, StopTransactionResponse];
};

// --- Central system -> charge point ---------------------------------------------------------

export type ChargingSchedulePeriod = { startPeriod: number; limit: number; numberPhases?: number };
export type ChargingProfile = {
  chargingProfileId: number;
  transactionId?: number;
  stackLevel: number;
  chargingProfilePurpose: 'ChargePointMaxProfile' | 'TxDefaultProfile' | 'TxProfile';
  chargingProfileKind: 'Absolute' | 'Recurring' | 'Relative';
  recurrencyKind?: 'Daily' | 'Weekly';
  validFrom?: string;
  validTo?: string;
  chargingSchedule: {
    duration?: number;
    startSchedule?: string;
    chargingRateUnit: 'A' | 'W';
    chargingSchedulePeriod: ChargingSchedulePeriod[];
    minChargingRate?: number;
  };
};
export type KeyValue = { key: string; readonly: boolean; value?: string };

/** Request and response type of every central-system-initiated command. */
export type CentralSystemMessages = {
  CancelReservation: [{ reservationId: number }, { status: 'Accepted' | 'Rejected' }];
  ChangeAvailability: [{ connectorId: number; type: AvailabilityType }, { status: AvailabilityStatus }];
  ChangeConfiguration: [{ key: string; value: string }, { status: ConfigurationStatus }];
  ClearCache: [Record<string, never>, { status: ClearCacheStatus }];
  ClearChargingProfile: [
    {
      id?: number;
      connectorId?: number;
      chargingProfilePurpose?: ChargingProfile['chargingProfilePurpose'];
      stackLevel?: number;
    },
    { status: 'Accepted' | 'Unknown' },
  ];
  DataTransfer: [DataTransferRequest, DataTransferResponse];
  GetCompositeSchedule: [
    { connectorId: number; duration: number; chargingRateUnit?: 'A' | 'W' },
    {
      status: 'Accepted' | 'Rejected';
      connectorId?: number;
      scheduleStart?: string;
      chargingSchedule?: ChargingProfile['chargingSchedule'];
    },
  ];
  GetConfiguration: [{ key?: string[] }, { configurationKey?: KeyValue[]; unknownKey?: string[] }];
  GetDiagnostics: [
    { location: string; retries?: number; retryInterval?: number; startTime?: string; stopTime?: string },
    { fileName?: string },
  ];
  GetLocalListVersion: [Record<string, never>, { listVersion: number }];
  RemoteStartTransaction: [
    { connectorId?: number; idTag: string; chargingProfile?: ChargingProfile },
    { status: RemoteStartStopStatus },
  ];
  RemoteStopTransaction: [{ transactionId: number }, { status: RemoteStartStopStatus }];
  ReserveNow: [
    { connectorId: number; expiryDate: string; idTag: string; parentIdTag?: string; reservationId: number },
    { status: 'Accepted' | 'Faulted' | 'Occupied' | 'Rejected' | 'Unavailable' },
  ];
  Reset: [{ type: ResetType }, { status: ResetStatus }];
  SendLocalList: [
    {
      listVersion: number;
      localAuthorizationList?: { idTag: string; idTagInfo?: IdTagInfo }[];
      updateType: 'Differential' | 'Full';
    },
    { status: 'Accepted' | 'Failed' | 'NotSupported' | 'VersionMismatch' },
  ];
  SetChargingProfile: [
    { connectorId: number; csChargingProfiles: ChargingProfile },
    { status: 'Accepted' | 'Rejected' | 'NotSupported' },
  ];
  TriggerMessage: [
    { requestedMessage: MessageTrigger; connectorId?: number },
    { status: TriggerMessageStatus },
  ];
  UnlockConnector: [{ connectorId: number }, { status: UnlockStatus }];
  UpdateFirmware: [
    { location: string; retries?: number; retrieveDate: string; retryInterval?: number },
    Record<string, never>,
  ];
};

export type CommandRequest<A extends keyof CentralSystemMessages> = CentralSystemMessages[A][0];
export type CommandResponse<A extends keyof CentralSystemMessages> = CentralSystemMessages[A][1];
