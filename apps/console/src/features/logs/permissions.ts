/** Resource codes of the logs screen (seeded under the sys:log menu). */
export const LOG_PERMISSIONS = {
  menu: 'sys:log',
  operation: 'sys:log:operation',
  login: 'sys:log:login',
} as const;
