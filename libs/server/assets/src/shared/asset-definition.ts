import type { EntityManager } from 'typeorm';
import type { z } from 'zod';
import type { AssetsDataScope } from './data-scope';

export type ColumnKind = 'text' | 'int' | 'numeric' | 'bool' | 'time' | 'date' | 'timestamptz' | 'intArray';

/**
 * A stored field: body/view name and column. `nullable`: rows written other than through the grid's
 * bodies may lack a value the bodies require (the answer's schema then allows null).
 */
export type AssetColumn = { field: string; column: string; kind: ColumnKind; nullable?: true };

/** Validated request body. */
export type AssetValues = Record<string, unknown>;
/** What the api returns for one row. */
export type AssetView = Record<string, unknown> & { id: number };
/** A referenced row as stored (snake_case columns). */
export type ReferencedRow = Record<string, unknown>;

/** A body field naming another row; the row must exist and, when scoped, be inside the caller's data scope. */
export type AssetReference = {
  field: string;
  table: string;
  noun: string;
  scoped: boolean;
  /** A condition on the referenced row (alias r), with the message when it does not hold (422). */
  must?: { sql: string; message: (id: number) => string };
  /** Extra values of the referenced row for hooks (alias r), e.g. `(SELECT ...) AS station_id`. */
  select?: string;
};

/** A named unique constraint and the field and message a violation reports (409). */
export type UniqueRule = {
  constraint: string;
  field: string;
  /** The other fields of a composite key (a gun's channel is unique per host: `['pileId']`). */
  within?: string[];
  message: (values: AssetValues) => string;
};

export type SaveInput = {
  values: AssetValues;
  previous: AssetView | undefined;
  references: Map<string, ReferencedRow>;
  scope: AssetsDataScope;
};

/** Area rules beyond field validation. `prepare` runs before the transaction; the rest inside it. */
export type AssetHooks = {
  /** Cross-field and cross-row rules; returns extra column values to store (e.g. a password hash). */
  prepare?(input: SaveInput): Promise<Record<string, unknown>>;
  /** Writes that must commit with the row (labels, the gateway's registry). */
  afterSave?(m: EntityManager, saved: AssetView, input: SaveInput): Promise<void>;
  beforeDelete?(m: EntityManager, row: AssetView): Promise<void>;
};

/** `bool` filters take `true` or `false` in the query string. */
export type AssetFilter = { field: string; sql: string; kind: 'int' | 'text' | 'like' | 'bool' };

/**
 * One basic-data entity: its table, fields, references, unique rules, schemas and permission prefix.
 * The generic repository, service and controller serve every entity from its definition, so the twelve
 * grids behave the same (paging, data scope, errors) and each area file states only what differs.
 */
export type AssetDefinition = {
  /** Route segment: `/api/<kind>`. */
  kind: string;
  /** For messages: `Company 7 does not exist`. */
  noun: string;
  table: string;
  /** Rows carry organization_id and are filtered by data scope. */
  scoped: boolean;
  /** Permission prefix: `<prefix>:query|add|edit|delete`. */
  permission: string;
  columns: AssetColumn[];
  /** Read-only values (alias t), e.g. a referenced row's name. */
  computed?: { field: string; sql: string; kind: ColumnKind }[];
  references: AssetReference[];
  /** A new row takes the organisation of the first present reference of this list. */
  organizationFrom?: string[];
  unique: UniqueRule[];
  createSchema: z.ZodTypeAny;
  updateSchema: z.ZodTypeAny;
  /** Grid filters (query string). */
  filters: AssetFilter[];
  /** Rules without dependencies; rules needing repositories are given to the service (see AssetsModule). */
  hooks?: AssetHooks;
  orderBy?: string;
};

export function columnsOf(def: AssetDefinition): string[] {
  return def.columns.map((c) => c.column);
}
