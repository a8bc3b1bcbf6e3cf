/**
 * The billing area's words shared by the server and the console. Its code lists and their labels are in
 * code-labels.ts; the answers' shapes are the api's document (the console's generated client). Money is
 * integer fen and energy integer Wh in every answer; prices per kWh are decimal yuan strings with 4 decimals.
 */

/** A reviewer's decision on a held order. */
export type ReviewDecision = 'approve' | 'reject';
