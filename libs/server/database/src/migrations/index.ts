import { Messaging1763800000000 } from './1763800000000-messaging';
import { OcppGateway1763810000000 } from './1763810000000-ocpp-gateway';
import { Billing1763840000000 } from './1763840000000-billing';

/** Every migration of the platform, oldest first. Add new ones at the end. */
export const allMigrations = [Messaging1763800000000, OcppGateway1763810000000, Billing1763840000000];
