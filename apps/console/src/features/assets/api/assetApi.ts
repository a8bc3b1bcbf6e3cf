import type { DictNode, GridPage, StationPricePlanView } from '@voltdepot/shared-contracts';
import { request, type FileResult, type QueryParams } from '../../../request';
import type { AssetKind, AssetRow, ImportReport, PricePlanOption, UnknownPileAttempt } from '../types';

/** Grid page size of the basic-data screens. */
export const ASSET_PAGE_SIZE = 10;
/** What a select of references loads at most (the api's page limit). */
export const OPTIONS_PAGE_SIZE = 500;

export type CardActionName = 'make' | 'reportLoss' | 'releaseLoss' | 'replace' | 'swap' | 'logout';

/**
 * Every path the basic-data screens call, as the api serves them (docs/assets.md). They are the
 * templates of the generated client (`apiOperations`), which assetApi.spec.ts checks.
 */
export const ASSET_PATHS = {
  page: '/api/{kind}/page/{page}/size/{size}',
  row: '/api/{kind}/{id}',
  create: '/api/{kind}',
  export: '/api/{kind}/export',
  import: '/api/{kind}/import',
  template: '/api/{kind}/import/template',
  pileBatch: '/api/pile/batch/{action}',
  unknownPiles: '/api/pile/unknown/page/{page}/size/{size}',
  registerUnknown: '/api/pile/unknown/{chargePointId}/register',
  unknownPilesExport: '/api/pile/unknown/export',
  cardAction: '/api/card/{id}/{action}',
  pictures: '/api/station/{id}/picture',
  picture: '/api/station/{id}/picture/{pictureId}',
  dictionary: '/api/dict/type/{code}',
  pricePlans: '/api/pricePlan/page/{page}/size/{size}',
  assignPricePlan: '/api/pricePlan/station/{stationId}',
  stationPricePlans: '/api/pricePlan/station/{stationId}',
} as const;

/** Fills a path template; values are URI-encoded. */
export function fillPath(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`missing path parameter ${name} of ${template}`);
    return encodeURIComponent(String(value));
  });
}

const EMPTY: GridPage<never> = { list: [], total: 0 };

export const assetApi = {
  async page(kind: AssetKind, page: number, size: number, filters: QueryParams, signal?: AbortSignal) {
    const path = fillPath(ASSET_PATHS.page, { kind, page, size });
    return (await request.get<GridPage<AssetRow>>(path, { params: filters, signal })) ?? EMPTY;
  },
  async get(kind: AssetKind, id: number, signal?: AbortSignal) {
    return request.get<AssetRow>(fillPath(ASSET_PATHS.row, { kind, id }), { signal });
  },
  create(kind: AssetKind, body: Record<string, unknown>) {
    return request.post<AssetRow>(fillPath(ASSET_PATHS.create, { kind }), body);
  },
  update(kind: AssetKind, id: number, body: Record<string, unknown>) {
    return request.put<AssetRow>(fillPath(ASSET_PATHS.row, { kind, id }), body);
  },
  remove(kind: AssetKind, id: number) {
    return request.delete<void>(fillPath(ASSET_PATHS.row, { kind, id }));
  },
  /** Saves the filtered list as .xlsx; resolves with the saved name. */
  exportExcel(kind: AssetKind, filters: QueryParams, lang: string, fileName: string) {
    return request.exportExcel(fillPath(ASSET_PATHS.export, { kind }), {
      params: { ...filters, lang },
      fileName,
    });
  },
  downloadTemplate(kind: AssetKind, lang: string, fileName: string) {
    return request.exportExcel(fillPath(ASSET_PATHS.template, { kind }), { params: { lang }, fileName });
  },
  importFile(kind: AssetKind, file: File, lang: string) {
    const form = new FormData();
    form.append('file', file);
    return request.post<ImportReport>(fillPath(ASSET_PATHS.import, { kind }), form, { params: { lang } });
  },
  pileBatch(action: 'enable' | 'disable' | 'delivery', ids: number[]) {
    return request.post<{ updated: number }>(fillPath(ASSET_PATHS.pileBatch, { action }), { ids });
  },
  async unknownPiles(page: number, size: number, signal?: AbortSignal) {
    const path = fillPath(ASSET_PATHS.unknownPiles, { page, size });
    return (await request.get<GridPage<UnknownPileAttempt>>(path, { signal })) ?? EMPTY;
  },
  /** Saves the unknown-pile list as .xlsx; resolves with the saved name. */
  exportUnknownPiles(lang: string, fileName: string) {
    return request.exportExcel(ASSET_PATHS.unknownPilesExport, { params: { lang }, fileName });
  },
  registerUnknown(chargePointId: string, body: Record<string, unknown>) {
    return request.post<{ pile: AssetRow; ocppPassword: string }>(
      fillPath(ASSET_PATHS.registerUnknown, { chargePointId }),
      body,
    );
  },
  cardAction(id: number, action: CardActionName, physicalNumber?: string) {
    return request.post<AssetRow>(
      fillPath(ASSET_PATHS.cardAction, { id, action }),
      physicalNumber === undefined ? {} : { physicalNumber },
    );
  },
  uploadPicture(stationId: number, file: File) {
    const form = new FormData();
    form.append('file', file);
    return request.post<{ id: number }>(fillPath(ASSET_PATHS.pictures, { id: stationId }), form);
  },
  async picture(stationId: number, pictureId: number, signal?: AbortSignal): Promise<Blob | undefined> {
    const result = await request.request<FileResult>(
      'GET',
      fillPath(ASSET_PATHS.picture, { id: stationId, pictureId }),
      { responseType: 'blob', signal },
    );
    return result?.data;
  },
  removePicture(stationId: number, pictureId: number) {
    return request.delete<void>(fillPath(ASSET_PATHS.picture, { id: stationId, pictureId }));
  },
  async dictionary(code: string, signal?: AbortSignal): Promise<DictNode[]> {
    return (await request.get<DictNode[]>(fillPath(ASSET_PATHS.dictionary, { code }), { signal })) ?? [];
  },
  async pricePlans(signal?: AbortSignal): Promise<PricePlanOption[]> {
    const path = fillPath(ASSET_PATHS.pricePlans, { page: 1, size: OPTIONS_PAGE_SIZE });
    return ((await request.get<GridPage<PricePlanOption>>(path, { signal })) ?? EMPTY).list;
  },
  /** Links the plan to the station from `effectiveFrom` (an instant with offset; undefined: now). */
  assignPricePlan(stationId: number, planId: number, effectiveFrom: string | undefined) {
    return request.post<void>(fillPath(ASSET_PATHS.assignPricePlan, { stationId }), {
      planId,
      ...(effectiveFrom ? { effectiveFrom } : {}),
    });
  },
  /** The station's plan history, newest first. */
  async stationPricePlans(stationId: number, signal?: AbortSignal): Promise<StationPricePlanView[]> {
    return (
      (await request.get<StationPricePlanView[]>(fillPath(ASSET_PATHS.stationPricePlans, { stationId }), {
        signal,
      })) ?? []
    );
  },
};
