import type { AuthPrincipal } from '@voltdepot/server-core';
import type { GridPage } from '@voltdepot/shared-contracts';
import type { EntityManager } from 'typeorm';
import { AssetsErrorCode, AssetsException } from '../assets.exception';
import type {
  AssetDefinition,
  AssetHooks,
  AssetValues,
  AssetView,
  ReferencedRow,
  SaveInput,
} from './asset-definition';
import type { AssetRepository } from './asset.repository';
import type { AssetsDataScope, AssetsDataScopeProvider } from './data-scope';
import { foreignKeyViolation, uniqueViolation } from './sql-errors';

/** Nouns of the tables whose rows may still refer to a row being deleted (for the 409 message). */
const REFERRING_NOUNS: Record<string, string> = {
  bus_branch: 'branches',
  bus_fleet: 'fleets',
  bus_line: 'lines',
  station: 'stations',
  station_label: 'stations',
  charging_pile: 'charging hosts',
  charging_gun: 'guns',
  box_transformer: 'box transformers',
  vehicle: 'vehicles',
  parking_space: 'parking spaces',
  camera: 'cameras',
  maintenance_personnel: 'maintenance personnel',
};

/**
 * Grid, get, create, update and delete of one basic-data entity, inside the caller's data scope: rows
 * outside it look non-existent. Field rules come from the definition's schemas, cross-row rules from its
 * hooks; database constraints back both, and their violations become 409s, never 500s.
 */
export class AssetCrudService {
  private readonly hooks: AssetHooks;

  constructor(
    readonly def: AssetDefinition,
    private readonly repository: AssetRepository,
    private readonly scopes: AssetsDataScopeProvider,
    hooks?: AssetHooks,
  ) {
    this.hooks = hooks ?? def.hooks ?? {};
  }

  scopeOf(me: AuthPrincipal): Promise<AssetsDataScope> {
    return this.scopes.scopeOf(me.userId);
  }

  async page(
    me: AuthPrincipal,
    filter: Record<string, unknown>,
    page: number,
    size: number,
  ): Promise<GridPage<AssetView>> {
    return this.repository.page(this.def, await this.scopeOf(me), filter, page, size);
  }

  async get(me: AuthPrincipal, id: number): Promise<AssetView> {
    return this.visible(await this.scopeOf(me), id);
  }

  async create(me: AuthPrincipal, values: AssetValues, m?: EntityManager): Promise<AssetView> {
    return this.createIn(await this.scopeOf(me), values, m);
  }

  /** Creates a row with a scope already known (an import asks once per file), in `m`'s transaction if given. */
  createIn(scope: AssetsDataScope, values: AssetValues, m?: EntityManager): Promise<AssetView> {
    return this.save(scope, undefined, values, m);
  }

  /** Changes a visible row with a scope already known (an import asks once per file), in `m`'s transaction if given. */
  async updateIn(
    scope: AssetsDataScope,
    id: number,
    values: AssetValues,
    m?: EntityManager,
  ): Promise<AssetView> {
    return this.save(scope, await this.visible(scope, id, m), values, m);
  }

  async update(me: AuthPrincipal, id: number, values: AssetValues): Promise<AssetView> {
    return this.updateIn(await this.scopeOf(me), id, values);
  }

  async remove(me: AuthPrincipal, id: number): Promise<void> {
    const scope = await this.scopeOf(me);
    const row = await this.visible(scope, id);
    try {
      await this.repository.transaction(async (m) => {
        await this.hooks.beforeDelete?.(m, row);
        await this.repository.delete(m, this.def, id);
      });
    } catch (error) {
      const table = foreignKeyViolation(error);
      if (table === undefined) throw error;
      const by = REFERRING_NOUNS[table] ?? 'other records';
      throw new AssetsException(
        AssetsErrorCode.InUse,
        `${this.def.noun} ${id} is still used by ${by} and cannot be deleted`,
      );
    }
  }

  async visible(scope: AssetsDataScope, id: number, m?: EntityManager): Promise<AssetView> {
    const row = await this.repository.find(this.def, id, scope, m);
    if (row === null) {
      throw new AssetsException(AssetsErrorCode.NotFound, `${this.def.noun} ${id} does not exist`);
    }
    return row;
  }

  /** Existing, visible referenced rows by field; unknown ids are 404s naming the field. */
  async references(scope: AssetsDataScope, values: AssetValues): Promise<Map<string, ReferencedRow>> {
    const found = new Map<string, ReferencedRow>();
    for (const ref of this.def.references) {
      const id = values[ref.field];
      if (typeof id !== 'number') continue;
      const result = await this.repository.reference(ref, id, scope);
      if (result === null) {
        const message = `${ref.noun} ${id} does not exist`;
        throw new AssetsException(AssetsErrorCode.ReferenceNotFound, message, [
          { field: ref.field, message },
        ]);
      }
      if (!result.ok && ref.must) {
        const message = ref.must.message(id);
        throw new AssetsException(AssetsErrorCode.RuleViolated, message, [{ field: ref.field, message }]);
      }
      found.set(ref.field, result.row);
    }
    return found;
  }

  private async organizationOf(
    scope: AssetsDataScope,
    values: AssetValues,
    references: Map<string, ReferencedRow>,
    previous: AssetView | undefined,
  ): Promise<number | undefined> {
    if (!this.def.scoped) return undefined;
    for (const field of this.def.organizationFrom ?? []) {
      const row = references.get(field);
      if (row !== undefined) return Number(row['organization_id']);
    }
    const requested = values['organizationId'];
    if (typeof requested === 'number') {
      const access = await this.repository.organizationAccess(requested, scope);
      if (access !== 'visible') {
        const missing = access === 'missing';
        const message = missing
          ? `Organization ${requested} does not exist`
          : `Organization ${requested} is outside your data scope`;
        throw new AssetsException(
          missing ? AssetsErrorCode.ReferenceNotFound : AssetsErrorCode.OutOfDataScope,
          message,
          [{ field: 'organizationId', message }],
        );
      }
      return requested;
    }
    if (previous !== undefined) return Number(previous['organizationId']);
    return scope.rootIds[0];
  }

  private async save(
    scope: AssetsDataScope,
    previous: AssetView | undefined,
    values: AssetValues,
    outer?: EntityManager,
  ): Promise<AssetView> {
    const references = await this.references(scope, values);
    const organizationId = await this.organizationOf(scope, values, references, previous);
    const input: SaveInput = { values, previous, references, scope };
    const extra = (await this.hooks.prepare?.(input)) ?? {};
    const columns: Record<string, unknown> = {};
    for (const c of this.def.columns) if (values[c.field] !== undefined) columns[c.column] = values[c.field];
    Object.assign(columns, extra);
    const work = async (m: EntityManager) => {
      const id =
        previous === undefined
          ? await this.repository.insert(m, this.def, columns, organizationId)
          : (await this.repository.update(m, this.def, previous.id, columns, organizationId), previous.id);
      const saved = await this.visible(scope, id, m);
      if (this.hooks.afterSave === undefined) return saved;
      await this.hooks.afterSave(m, saved, input);
      // The hook's writes (labels, the gateway's registry) may change what the row reads as.
      return this.visible(scope, id, m);
    };
    try {
      return outer ? await work(outer) : await this.repository.transaction(work);
    } catch (error) {
      throw this.translate(error, values);
    }
  }

  /** Unique violations (a race with another request) become 409s naming the field; vanished references 404s. */
  translate(error: unknown, values: AssetValues): unknown {
    if (foreignKeyViolation(error) !== undefined) {
      // A referenced row was deleted between the check and the write.
      return new AssetsException(AssetsErrorCode.ReferenceNotFound, 'A referenced record no longer exists');
    }
    const constraint = uniqueViolation(error);
    if (constraint === undefined) return error;
    const rule = this.def.unique.find((u) => u.constraint === constraint);
    const message = rule?.message(values) ?? `${this.def.noun} already exists`;
    return new AssetsException(
      AssetsErrorCode.Duplicate,
      message,
      rule ? [{ field: rule.field, message }] : undefined,
    );
  }
}
