/**
 * The organisation subtrees a user sees (identity's data scope): the app provides it, so the IC-card area
 * needs nothing from identity but this shape.
 */
export type IcCardDataScope = {
  /** The caller's visible subtrees' roots (the first is where a new record goes by default). */
  rootIds: number[];
  /** `LIKE` patterns over identity_organization_v.path, e.g. `/1/2/%`. */
  pathPatterns: string[];
};

export interface IcCardDataScopeProvider {
  scopeOf(userId: number): Promise<IcCardDataScope>;
}

/** Injection token of the data-scope provider given to `IcCardModule.forRoot`. */
export const ICCARD_DATA_SCOPE = Symbol('ICCARD_DATA_SCOPE');
