import type { QueryParams } from '../../request';
import type { AssetKind } from './types';

export const assetsQueryKeys = {
  all: ['assets'] as const,
  grid: (kind: AssetKind) => [...assetsQueryKeys.all, 'grid', kind] as const,
  page: (kind: AssetKind, params: QueryParams) => [...assetsQueryKeys.grid(kind), 'page', params] as const,
  options: (kind: AssetKind, params: QueryParams) =>
    [...assetsQueryKeys.grid(kind), 'options', params] as const,
  row: (kind: AssetKind, id: number) => [...assetsQueryKeys.grid(kind), 'row', id] as const,
  unknownPiles: () => [...assetsQueryKeys.all, 'unknownPiles'] as const,
  dictionary: (code: string) => [...assetsQueryKeys.all, 'dict', code] as const,
  pricePlans: () => [...assetsQueryKeys.all, 'pricePlans'] as const,
  picture: (stationId: number, pictureId: number) =>
    [...assetsQueryKeys.all, 'picture', stationId, pictureId] as const,
};
