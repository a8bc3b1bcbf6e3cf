export { foreignKeyViolation, uniqueViolation } from '@voltdepot/server-database';
