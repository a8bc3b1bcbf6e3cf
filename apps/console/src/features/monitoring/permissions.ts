import { MONITOR_PERMISSIONS, PILE_COMMAND_PERMISSION } from '@voltdepot/shared-contracts';

/** Resource codes of the monitoring screens and of the pile command buttons (the server checks again). */
export const MONITORING_PERMISSIONS = { ...MONITOR_PERMISSIONS, command: PILE_COMMAND_PERMISSION } as const;
