import { Messaging1763800000000 } from './1763800000000-messaging';

/** Every migration of the platform, oldest first. Add new ones at the end. */
export const allMigrations = [Messaging1763800000000];
