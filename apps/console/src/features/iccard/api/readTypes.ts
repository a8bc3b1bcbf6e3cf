/**
 * The read endpoints of IcCardQueryController (branch h1-reads), written here by hand until the generated
 * client has them; then these become the generated types (IcCardQueryController_*).
 */
import type { IcCardActionView, IcCardView, IcCustomerView } from '@voltdepot/console-api-client';

export type IcAccountKind = 'personal' | 'group' | 'group_sub';

/** GET /api/iccard/account/page/{page}/size/{size}?kind&name&companyId */
export type IcAccountRow = {
  accountId: number;
  kind: IcAccountKind;
  customerId: number;
  customerName: string;
  companyId: number | null;
  companyName: string | null;
  contacts: string | null;
  balanceFen: number;
  arrearsFen: number;
  consumedFen: number;
  memberCount: number;
};

export type IcRecordKind = 'recharge' | 'refund' | 'consumption' | 'allocate' | 'reclaim';

/** One money movement of an account. */
export type IcRecordRow = {
  transactionId: number;
  kind: IcRecordKind;
  accountId: number;
  customerId: number;
  customerName: string;
  cardNo: string | null;
  amountFen: number;
  balanceBeforeFen: number;
  balanceAfterFen: number;
  reference: string | null;
  operatorId: number | null;
  operatorName: string | null;
  occurredAt: string;
};

export type IcRecordPage = { list: IcRecordRow[]; total: number; sumFen: number };

export type IcAccountView = {
  accountId: number;
  kind: IcAccountKind;
  balanceFen: number;
  arrearsFen: number;
  consumedFen?: number;
};

/** GET /api/iccard/group/{id} */
export type IcGroupInfo = {
  group: IcCustomerView;
  account: IcAccountView | null;
  members: (IcCustomerView & { cards?: Pick<IcCardView, 'cardNo' | 'chip' | 'status' | 'cardType'>[] })[];
};

/** GET /api/iccard/card/{cardNo}/detail */
export type IcCardDetail = {
  card: IcCardView;
  customer: IcCustomerView;
  account: IcAccountView | null;
  actions: IcCardActionView[];
  records: IcRecordRow[];
};
