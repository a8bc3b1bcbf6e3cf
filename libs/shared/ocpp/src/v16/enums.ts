/** OCPP 1.6J enumerations, as string-literal unions with their value lists (for validation and UIs). */

export const OCPP16_PROTOCOL = 'ocpp1.6';

export const ChargePointActions = [
  'Authorize',
  'BootNotification',
  'DataTransfer',
  'DiagnosticsStatusNotification',
  'FirmwareStatusNotification',
  'Heartbeat',
  'MeterValues',
  'StartTransaction',
  'StatusNotification',
  'StopTransaction',
] as const;
/** Messages a charge point sends to the central system. */
export type ChargePointAction = (typeof ChargePointActions)[number];

export const CentralSystemActions = [
  'CancelReservation',
  'ChangeAvailability',
  'ChangeConfiguration',
  'ClearCache',
  'ClearChargingProfile',
  'DataTransfer',
  'GetCompositeSchedule',
  'GetConfiguration',
  'GetDiagnostics',
  'GetLocalListVersion',
  'RemoteStartTransaction',
  'RemoteStopTransaction',
  'ReserveNow',
  'Reset',
  'SendLocalList',
  'SetChargingProfile',
  'TriggerMessage',
  'UnlockConnector',
  'UpdateFirmware',
] as const;
/** The 19 commands the central system sends to a charge point. */
export type CentralSystemAction = (typeof CentralSystemActions)[number];

export const RegistrationStatuses = ['Accepted', 'Pending', 'Rejected'] as const;
export type RegistrationStatus = (typeof RegistrationStatuses)[number];

export const AuthorizationStatuses = ['Accepted', 'Blocked', 'Expired', 'Invalid', 'ConcurrentTx'] as const;
export type AuthorizationStatus = (typeof AuthorizationStatuses)[number];

export const ChargePointStatuses = [
  'Available',
  'Preparing',
  'Charging',
  'SuspendedEVSE',
  'SuspendedEV',
  'Finishing',
  'Reserved',
  'Unavailable',
  'Faulted',
] as const;
export type ChargePointStatus = (typeof ChargePointStatuses)[number];

export const ChargePointErrorCodes = [
  'ConnectorLockFailure',
  'EVCommunicationError',
  'GroundFailure',
  'HighTemperature',
  'InternalError',
  'LocalListConflict',
  'NoError',
  'OtherError',
  'OverCurrentFailure',
  'PowerMeterFailure',
  'PowerSwitchFailure',
  'ReaderFailure',
  'ResetFailure',
  'UnderVoltage',
  'OverVoltage',
  'WeakSignal',
] as const;
export type ChargePointErrorCode = (typeof ChargePointErrorCodes)[number];

export const StopReasons = [
  'EmergencyStop',
  'EVDisconnected',
  'HardReset',
  'Local',
  'Other',
  'PowerLoss',
  'Reboot',
  'Remote',
  'SoftReset',
  'UnlockCommand',
  'DeAuthorized',
] as const;
export type StopReason = (typeof StopReasons)[number];

export const Measurands = [
  'Energy.Active.Export.Register',
  'Energy.Active.Import.Register',
  'Energy.Reactive.Export.Register',
  'Energy.Reactive.Import.Register',
  'Energy.Active.Export.Interval',
  'Energy.Active.Import.Interval',
  'Energy.Reactive.Export.Interval',
  'Energy.Reactive.Import.Interval',
  'Power.Active.Export',
  'Power.Active.Import',
  'Power.Offered',
  'Power.Reactive.Export',
  'Power.Reactive.Import',
  'Power.Factor',
  'Current.Import',
  'Current.Export',
  'Current.Offered',
  'Voltage',
  'Frequency',
  'Temperature',
  'SoC',
  'RPM',
] as const;
export type Measurand = (typeof Measurands)[number];

export type ReadingContext =
  | 'Interruption.Begin'
  | 'Interruption.End'
  | 'Sample.Clock'
  | 'Sample.Periodic'
  | 'Transaction.Begin'
  | 'Transaction.End'
  | 'Trigger'
  | 'Other';
export type ValueFormat = 'Raw' | 'SignedData';
export type Phase = 'L1' | 'L2' | 'L3' | 'N' | 'L1-N' | 'L2-N' | 'L3-N' | 'L1-L2' | 'L2-L3' | 'L3-L1';
export type Location = 'Cable' | 'EV' | 'Inlet' | 'Outlet' | 'Body';
export type UnitOfMeasure =
  | 'Wh'
  | 'kWh'
  | 'varh'
  | 'kvarh'
  | 'W'
  | 'kW'
  | 'VA'
  | 'kVA'
  | 'var'
  | 'kvar'
  | 'A'
  | 'V'
  | 'K'
  | 'Celcius'
  | 'Celsius'
  | 'Fahrenheit'
  | 'Percent';

export type AvailabilityType = 'Inoperative' | 'Operative';
export type AvailabilityStatus = 'Accepted' | 'Rejected' | 'Scheduled';
export type ResetType = 'Hard' | 'Soft';
export type ResetStatus = 'Accepted' | 'Rejected';
export type RemoteStartStopStatus = 'Accepted' | 'Rejected';
export type UnlockStatus = 'Unlocked' | 'UnlockFailed' | 'NotSupported';
export type ConfigurationStatus = 'Accepted' | 'Rejected' | 'RebootRequired' | 'NotSupported';
export type ClearCacheStatus = 'Accepted' | 'Rejected';
export type DataTransferStatus = 'Accepted' | 'Rejected' | 'UnknownMessageId' | 'UnknownVendorId';
export type TriggerMessageStatus = 'Accepted' | 'Rejected' | 'NotImplemented';
export type MessageTrigger =
  | 'BootNotification'
  | 'DiagnosticsStatusNotification'
  | 'FirmwareStatusNotification'
  | 'Heartbeat'
  | 'MeterValues'
  | 'StatusNotification';
export type DiagnosticsStatus = 'Idle' | 'Uploaded' | 'UploadFailed' | 'Uploading';
export type FirmwareStatus =
  | 'Downloaded'
  | 'DownloadFailed'
  | 'Downloading'
  | 'Idle'
  | 'InstallationFailed'
  | 'Installing'
  | 'Installed';
