import { DynamicModule, Module, type Provider } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { cardDefinition, cardHooks } from './cards/cards.definition';
import { IdTagRepository } from './cards/id-tag.repository';
import {
  branchDefinition,
  companyDefinition,
  fleetDefinition,
  lineDefinition,
} from './companies/companies.definition';
import { GatewayRegistryRepository } from './piles/gateway-registry.repository';
import { gunDefinition, pileDefinition, pileHooks } from './piles/piles.definition';
import { PilesController } from './piles/piles.controller';
import { PilesService } from './piles/piles.service';
import {
  labelDefinition,
  manufacturerDefinition,
  operatorDefinition,
  regionDefinition,
} from './reference-data/reference-data.definition';
import type { AssetDefinition, AssetHooks } from './shared/asset-definition';
import { assetCrudController, serviceToken } from './shared/asset-crud.controller';
import { AssetCrudService } from './shared/asset-crud.service';
import { AssetRepository } from './shared/asset.repository';
import { ASSETS_DATA_SCOPE, type AssetsDataScopeProvider } from './shared/data-scope';
import { StationLabelRepository } from './stations/station-label.repository';
import { stationDefinition, stationHooks, transformerDefinition } from './stations/stations.definition';
import { VehiclesController } from './vehicles/vehicles.controller';
import { vehicleDefinition } from './vehicles/vehicles.definition';
import { VehiclesService } from './vehicles/vehicles.service';

export type AssetsModuleOptions = {
  /** The caller's data scope (identity's DataScopeService fits), built from the app's DataSource. */
  dataScope: { inject: [typeof DataSource]; useFactory: (db: DataSource) => AssetsDataScopeProvider };
};

/** Every basic-data grid of the area, in menu order. */
export const ASSET_DEFINITIONS: AssetDefinition[] = [
  companyDefinition,
  branchDefinition,
  fleetDefinition,
  lineDefinition,
  stationDefinition,
  pileDefinition,
  gunDefinition,
  transformerDefinition,
  vehicleDefinition,
  cardDefinition,
  manufacturerDefinition,
  operatorDefinition,
  regionDefinition,
  labelDefinition,
];

/** Rules that write through repositories: station labels, the gateway's pile registry and id tags. */
const HOOKS: Record<string, { inject: Provider[]; make: (...deps: never[]) => AssetHooks }> = {
  station: { inject: [StationLabelRepository], make: stationHooks },
  pile: { inject: [GatewayRegistryRepository], make: pileHooks },
  card: { inject: [IdTagRepository], make: cardHooks },
};

function serviceProvider(def: AssetDefinition): Provider {
  const hooks = HOOKS[def.kind];
  return {
    provide: serviceToken(def.kind),
    inject: [AssetRepository, ASSETS_DATA_SCOPE, ...(hooks?.inject ?? [])] as never[],
    useFactory: (repository: AssetRepository, scopes: AssetsDataScopeProvider, ...deps: never[]) =>
      new AssetCrudService(def, repository, scopes, hooks?.make(...deps)),
  };
}

/**
 * Charging assets: the basic-data grids (companies to cards), the gateway's pile registry and id-tag
 * read model kept in step with hosts and cards, unknown-pile registration, and xlsx export and import.
 * Needs the app's global `DataSource`.
 */
@Module({})
export class AssetsModule {
  static forRoot(options: AssetsModuleOptions): DynamicModule {
    return {
      module: AssetsModule,
      // The hosts' and vehicles' own routes first: their fixed paths (export) before the grids' `:id`.
      controllers: [PilesController, VehiclesController, ...ASSET_DEFINITIONS.map(assetCrudController)],
      providers: [
        {
          provide: ASSETS_DATA_SCOPE,
          inject: options.dataScope.inject,
          useFactory: options.dataScope.useFactory,
        },
        AssetRepository,
        StationLabelRepository,
        GatewayRegistryRepository,
        IdTagRepository,
        ...ASSET_DEFINITIONS.map(serviceProvider),
        {
          provide: PilesService,
          inject: [serviceToken('pile'), AssetRepository, GatewayRegistryRepository],
          useFactory: (
            crud: AssetCrudService,
            repository: AssetRepository,
            registry: GatewayRegistryRepository,
          ) => new PilesService(crud, repository, registry),
        },
        {
          provide: VehiclesService,
          inject: [serviceToken('vehicle'), AssetRepository],
          useFactory: (crud: AssetCrudService, repository: AssetRepository) =>
            new VehiclesService(crud, repository),
        },
      ],
    };
  }
}
