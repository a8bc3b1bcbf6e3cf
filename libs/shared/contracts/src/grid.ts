/** Grid responses, as the spec names them. */
export type GridPage<T> = { list: T[]; total: number };
