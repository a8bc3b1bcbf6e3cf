/**
 * Codes of the billing area shared by the server and the console (the answers' shapes are the api's
 * document: the console's generated client). Money is integer fen and energy integer Wh in every
 * answer; prices per kWh are decimal yuan strings with 4 decimals.
 */

/** Spec §9 charging period types, in the order the console lists them. */
export const STAGE_TYPE_CODES = ['sharp', 'peak', 'normal', 'valley', 'deepValley'] as const;
export type StageTypeCode = (typeof STAGE_TYPE_CODES)[number];

/** Operator actions on orders listed by the order operation log (the review of held orders). */
export const ORDER_OPERATION_ACTIONS = ['approved', 'rejected'] as const;
export type OrderOperationAction = (typeof ORDER_OPERATION_ACTIONS)[number];

/** Spec §9 client types: 1 personal, 2 group, 3 group external card. */
export type CustomerTypeCode = 1 | 2 | 3;

/** Spec §4 pay status codes: 0 unpaid, 1 paid, 3 abnormal. */
export type PayStatusCode = 0 | 1 | 3;
/** Spec §4 order status. */
export const ORDER_STATUS_CODES = ['unpaid', 'paid', 'refund', 'abnormal', 'unsettled'] as const;
export type OrderStatusCode = (typeof ORDER_STATUS_CODES)[number];
/** The approval status of a held (abnormal) order (dictionary approval_status). */
export type ReviewStatusCode = 'pending' | 'audited' | 'rejected';
export type ReviewDecision = 'approve' | 'reject';
/** Spec §9 start types (dictionary start_type): 0 until full, 1 by time, 2 by percent, 3 by amount, 4 by energy. */
export type StartTypeCode = 0 | 1 | 2 | 3 | 4;

/** Spec §4 reservation status. */
export type ReservationStatusCode = 'successful' | 'completed' | 'timedOut' | 'cancelled';
