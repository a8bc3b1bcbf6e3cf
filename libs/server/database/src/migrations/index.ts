import { Messaging1763800000000 } from './1763800000000-messaging';
import { OcppGateway1763810000000 } from './1763810000000-ocpp-gateway';
import { Identity1763820000000 } from './1763820000000-identity';
import { MsgCenter1763830000000 } from './1763830000000-msg-center';
import { IdentityTotp1763820000100 } from './1763820000100-identity-totp';
import { Billing1763840000000 } from './1763840000000-billing';
import { BillingResources1763840000100 } from './1763840000100-billing-resources';
import { Assets1763850000000 } from './1763850000000-assets';
import { AssetsResources1763850000100 } from './1763850000100-assets-resources';
import { PileCommandResource1763860000000 } from './1763860000000-pile-command-resource';
import { DiscountPlans1763870000000 } from './1763870000000-discount-plans';

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
];
