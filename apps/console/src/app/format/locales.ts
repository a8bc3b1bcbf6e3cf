/** Strings of the business time zone hints (registered as `timeZone` in src/locales). */
export const timeZoneZhCN = {
  /** Beside range pickers. */
  businessTime: '业务时间 {{offset}}',
  /** The hints' tooltip and accessible name. */
  explain: '时间均为业务时区 {{zone}}（{{offset}}），与浏览器时区无关',
};

export const timeZoneEnUS: typeof timeZoneZhCN = {
  businessTime: 'Business time {{offset}}',
  explain: 'Times are in the business time zone {{zone}} ({{offset}}), whatever your browser’s zone',
};
