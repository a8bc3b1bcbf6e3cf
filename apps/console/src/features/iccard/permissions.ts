/**
 * Resource codes of the IC-card screens: the menu leaves (migration 1763820000000-identity, `leaves('iccard', ...)`)
 * and the buttons the server checks (libs/server/iccard ICCARD_PERMISSIONS, migration 1764200000000-iccard).
 */
export const ICCARD_PERMISSIONS = {
  customerMenu: 'iccard:customer',
  consumptionMenu: 'iccard:consumption',
  rechargeMenu: 'iccard:recharge',
  groupAccountMenu: 'iccard:groupAccount',
  groupInfoMenu: 'iccard:group_basic_info',
  cardManageMenu: 'iccard:cardManage',
  driverCardMenu: 'iccard:driverCard',
  customerQuery: 'iccard:customer:query',
  customerEdit: 'iccard:customer:edit',
  cardQuery: 'iccard:cardManage:query',
  cardAdd: 'iccard:cardManage:add',
  cardOperate: 'iccard:cardManage:operate',
  recordQuery: 'iccard:recharge:query',
  groupAllocate: 'iccard:groupAccount:allocate',
} as const;
