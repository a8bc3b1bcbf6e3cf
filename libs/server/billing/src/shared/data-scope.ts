/**
 * The organisation subtrees a user sees (identity's data scope): the app provides it, so the billing
 * area needs nothing from identity but this shape.
 */
export type BillingDataScope = {
  /** `LIKE` patterns over identity_organization_v.path, e.g. `/1/2/%`. */
  pathPatterns: string[];
};

export interface BillingDataScopeProvider {
  scopeOf(userId: number): Promise<BillingDataScope>;
}

/** Injection token of the data-scope provider given to `BillingModule.forRoot`. */
export const BILLING_DATA_SCOPE = Symbol('BILLING_DATA_SCOPE');

/** SQL: the row's organisation (column `column`) lies in one of the caller's subtrees (`$param`). */
export function inScope(column: string, param: number): string {
  return `${column} IN (SELECT so.id FROM identity_organization_v so WHERE so.path LIKE ANY($${param}::text[]))`;
}
