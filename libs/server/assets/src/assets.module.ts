import { DynamicModule, Module, type Provider } from '@nestjs/common';
import { PilePasswordHasher } from '@voltdepot/server-pile-credentials';
import type { DataSource } from 'typeorm';
import { CardRepository } from './cards/card.repository';
import { CardsController } from './cards/cards.controller';
import { cardDefinition, cardHooks } from './cards/cards.definition';
import { CardsService } from './cards/cards.service';
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
import { maintenancePersonnelDefinition } from './personnel/maintenance-personnel.definition';
import { alarmCodeDefinition, stopCodeDefinition } from './reference-data/codes.definition';
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
import { cameraDefinition } from './stations/cameras.definition';
import { parkingSpaceDefinition } from './stations/parking-spaces.definition';
import { peakTimeDefinition } from './stations/peak-times.definition';
import { StationFeeController } from './stations/station-fee.controller';
import { stationFeeDefinition } from './stations/station-fee.definition';
import { StationLabelRepository } from './stations/station-label.repository';
import { StationPictureRepository } from './stations/station-picture.repository';
import { StationPicturesController } from './stations/station-pictures.controller';
import { StationPicturesService } from './stations/station-pictures.service';
import { stationDefinition, stationHooks, transformerDefinition } from './stations/stations.definition';
import { assetSheetControllers, sheetServiceToken } from './spreadsheets/asset-sheet.controller';
import { AssetSheetService } from './spreadsheets/asset-sheet.service';
import { ASSET_SHEETS } from './spreadsheets/asset-sheets';
import { vehicleDefinition } from './vehicles/vehicles.definition';

export type AssetsModuleOptions = {
  /** The caller's data scope (identity's DataScopeService fits), built from the app's DataSource. */
  dataScope: { inject: [typeof DataSource]; useFactory: (db: DataSource) => AssetsDataScopeProvider };
  /** Hashes pile passwords with the key the gateway verifies them with (PILE_PASSWORD_KEY). */
  pilePasswords: PilePasswordHasher;
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
  parkingSpaceDefinition,
  cameraDefinition,
  alarmCodeDefinition,
  stopCodeDefinition,
  maintenancePersonnelDefinition,
  peakTimeDefinition,
];

/** Definitions served by their own controller only (no generic five routes). */
const SERVICE_ONLY_DEFINITIONS: AssetDefinition[] = [stationFeeDefinition];

/** Rules that write through repositories: station labels, the gateway's pile registry and id tags. */
const HOOKS: Record<string, { inject: Provider[]; make: (...deps: never[]) => AssetHooks }> = {
  station: { inject: [StationLabelRepository], make: stationHooks },
  pile: { inject: [GatewayRegistryRepository, PilePasswordHasher], make: pileHooks },
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

/** Grids with an xlsx export (and import); the station fee settings' import changes existing stations. */
const SHEET_DEFINITIONS = [...ASSET_DEFINITIONS, ...SERVICE_ONLY_DEFINITIONS].filter(
  (def) => ASSET_SHEETS[def.kind] !== undefined,
);

function sheetServiceProvider(def: AssetDefinition): Provider {
  return {
    provide: sheetServiceToken(def.kind),
    inject: [serviceToken(def.kind), AssetRepository],
    useFactory: (crud: AssetCrudService, repository: AssetRepository) =>
      new AssetSheetService(ASSET_SHEETS[def.kind], crud, repository),
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
      // Fixed paths (export, batch, unknown) before the grids' `:id`.
      controllers: [
        PilesController,
        CardsController,
        StationPicturesController,
        ...SHEET_DEFINITIONS.flatMap((def) => assetSheetControllers(def, ASSET_SHEETS[def.kind].importable)),
        StationFeeController,
        ...ASSET_DEFINITIONS.map(assetCrudController),
      ],
      providers: [
        {
          provide: ASSETS_DATA_SCOPE,
          inject: options.dataScope.inject,
          useFactory: options.dataScope.useFactory,
        },
        { provide: PilePasswordHasher, useValue: options.pilePasswords },
        AssetRepository,
        StationLabelRepository,
        GatewayRegistryRepository,
        IdTagRepository,
        CardRepository,
        StationPictureRepository,
        ...[...ASSET_DEFINITIONS, ...SERVICE_ONLY_DEFINITIONS].map(serviceProvider),
        ...SHEET_DEFINITIONS.map(sheetServiceProvider),
        {
          provide: CardsService,
          inject: [serviceToken('card'), AssetRepository, CardRepository, IdTagRepository],
          useFactory: (
            crud: AssetCrudService,
            repository: AssetRepository,
            cards: CardRepository,
            idTags: IdTagRepository,
          ) => new CardsService(crud, repository, cards, idTags),
        },
        {
          provide: StationPicturesService,
          inject: [serviceToken('station'), StationPictureRepository],
          useFactory: (crud: AssetCrudService, pictures: StationPictureRepository) =>
            new StationPicturesService(crud, pictures),
        },
        {
          provide: PilesService,
          inject: [serviceToken('pile'), AssetRepository, GatewayRegistryRepository],
          useFactory: (
            crud: AssetCrudService,
            repository: AssetRepository,
            registry: GatewayRegistryRepository,
          ) => new PilesService(crud, repository, registry),
        },
      ],
    };
  }
}
