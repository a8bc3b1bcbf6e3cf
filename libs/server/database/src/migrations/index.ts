import { Messaging1763800000000 } from './1763800000000-messaging';
import { OcppGateway1763810000000 } from './1763810000000-ocpp-gateway';
import { Identity1763820000000 } from './1763820000000-identity';
import { MsgCenter1763830000000 } from './1763830000000-msg-center';
import { MsgStopNotice1764110000000 } from './1764110000000-msg-stop-notice';
import { OrderVersions1764130000000 } from './1764130000000-order-versions';
import { OcppAbandonedSessions1764140000000 } from './1764140000000-ocpp-abandoned-sessions';
import { RoleGrantsByJob1764170000000 } from './1764170000000-role-grants-by-job';
import { MapSettings1764170000100 } from './1764170000100-map-settings';
import { StationSitePlan1764170000200 } from './1764170000200-station-site-plan';
import { BusinessTimeZonePublic1764180000300 } from './1764180000300-business-time-zone-public';
import { Ledger1764190000000 } from './1764190000000-ledger';
import { CardAuthorisation1764190000100 } from './1764190000100-card-authorisation';
import { IcCard1764200000000 } from './1764200000000-iccard';
import { IcCardRecords1764210000050 } from './1764210000050-iccard-records';
import { IdentityTotp1763820000100 } from './1763820000100-identity-totp';
import { Billing1763840000000 } from './1763840000000-billing';
import { BillingResources1763840000100 } from './1763840000100-billing-resources';
import { Assets1763850000000 } from './1763850000000-assets';
import { AssetsResources1763850000100 } from './1763850000100-assets-resources';
import { PileCommandResource1763860000000 } from './1763860000000-pile-command-resource';
import { DiscountPlans1763870000000 } from './1763870000000-discount-plans';
import { OccupationFees1763890000000 } from './1763890000000-occupation-fees';
import { Reservations1763890000100 } from './1763890000100-reservations';
import { OrderConsole1763940000000 } from './1763940000000-order-console';
import { ListExportButtons1763940000100 } from './1763940000100-list-export-buttons';
import { AssetsBasicData1763930000000 } from './1763930000000-assets-basic-data';
import { AssetsBasicDataResources1763930000100 } from './1763930000100-assets-basic-data-resources';
import { MsgResources1763950000000 } from './1763950000000-msg-resources';
import { NestedMenuPaths1763960000000 } from './1763960000000-nested-menu-paths';
import { OrderTariff1763970000000 } from './1763970000000-order-tariff';
import { OcppPileBoot1763880000000 } from './1763880000000-ocpp-pile-boot';
import { AdminTotpRequired1763910000000 } from './1763910000000-admin-totp-required';
import { EquipmentImportButtons1763974000000 } from './1763974000000-equipment-import-buttons';
import { CardVehicle1763980000000 } from './1763980000000-card-vehicle';
import { VehicleOperational1763990000000 } from './1763990000000-vehicle-operational';
import { OcppMeterBigint1764000000000 } from './1764000000000-ocpp-meter-bigint';
import { OrderVehicleStartMode1764010000000 } from './1764010000000-order-vehicle-start-mode';
import { PricePlanVersions1764020000000 } from './1764020000000-price-plan-versions';
import { ChargerTypeNames1764040000000 } from './1764040000000-charger-type-names';
import { StationFeeUnknownPileSheets1764050000000 } from './1764050000000-station-fee-unknown-pile-sheets';
import { OcppMessageLogQuery1764060000000 } from './1764060000000-ocpp-message-log-query';
import { ConnectorErrorSince1764070000000 } from './1764070000000-connector-error-since';
import { QuarantineWideTransactionId1764080000000 } from './1764080000000-quarantine-wide-transaction-id';
import { IdentityReadViews1764100000000 } from './1764100000000-identity-read-views';
import { AssetsReadViews1764100000100 } from './1764100000100-assets-read-views';
import { BillingReadViews1764100000200 } from './1764100000200-billing-read-views';
import { GatewayPublishedApi1764100000300 } from './1764100000300-gateway-published-api';
import { PilePasswordRehash1764150000000 } from './1764150000000-pile-password-rehash';

/** Every migration of the platform, oldest first. Add new ones at the end. */
export const allMigrations = [
  Messaging1763800000000,
  OcppGateway1763810000000,
  Identity1763820000000,
  MsgCenter1763830000000,
  IdentityTotp1763820000100,
  Billing1763840000000,
  BillingResources1763840000100,
  Assets1763850000000,
  AssetsResources1763850000100,
  PileCommandResource1763860000000,
  DiscountPlans1763870000000,
  OccupationFees1763890000000,
  Reservations1763890000100,
  OrderConsole1763940000000,
  ListExportButtons1763940000100,
  AssetsBasicData1763930000000,
  AssetsBasicDataResources1763930000100,
  NestedMenuPaths1763960000000,
  OrderTariff1763970000000,
  MsgResources1763950000000,
  OcppPileBoot1763880000000,
  AdminTotpRequired1763910000000,
  EquipmentImportButtons1763974000000,
  CardVehicle1763980000000,
  VehicleOperational1763990000000,
  OcppMeterBigint1764000000000,
  OrderVehicleStartMode1764010000000,
  PricePlanVersions1764020000000,
  ChargerTypeNames1764040000000,
  StationFeeUnknownPileSheets1764050000000,
  OcppMessageLogQuery1764060000000,
  ConnectorErrorSince1764070000000,
  QuarantineWideTransactionId1764080000000,
  IdentityReadViews1764100000000,
  AssetsReadViews1764100000100,
  BillingReadViews1764100000200,
  GatewayPublishedApi1764100000300,
  MsgStopNotice1764110000000,
  OrderVersions1764130000000,
  OcppAbandonedSessions1764140000000,
  PilePasswordRehash1764150000000,
  RoleGrantsByJob1764170000000,
  MapSettings1764170000100,
  StationSitePlan1764170000200,
  BusinessTimeZonePublic1764180000300,
  Ledger1764190000000,
  CardAuthorisation1764190000100,
  IcCard1764200000000,
  IcCardRecords1764210000050,
];
