/**
 * The organisation subtrees a user sees (identity's data scope): the app provides it, so this area
 * needs nothing from identity but this shape.
 */
export type AssetsDataScope = {
  /** Root organisation ids of the visible subtrees. */
  rootIds: number[];
  /** `LIKE` patterns over identity_organization_v.path, e.g. `/1/2/%`. */
  pathPatterns: string[];
};

export interface AssetsDataScopeProvider {
  scopeOf(userId: number): Promise<AssetsDataScope>;
}

/** Injection token of the data-scope provider given to `AssetsModule.forRoot`. */
export const ASSETS_DATA_SCOPE = Symbol('ASSETS_DATA_SCOPE');
