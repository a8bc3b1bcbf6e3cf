export * from './assets.module';
export * from './assets-worker.module';
export {
  ICCARD_CARDS_GROUP,
  IcCardSyncService,
  icCardSyncSubscription,
} from './cards/ic-card-sync.consumer';
export { CardRepository } from './cards/card.repository';
export { IdTagRepository } from './cards/id-tag.repository';
export * from './assets.exception';
export type { AssetsDataScope, AssetsDataScopeProvider } from './shared/data-scope';
export type { AssetView } from './shared/asset-definition';
export { gatewayStateOf } from './piles/gateway-registry.repository';
export { idTagStatusOf } from './cards/id-tag.repository';
export { HOST_SELECTION_MESSAGE } from './piles/piles.dto';
