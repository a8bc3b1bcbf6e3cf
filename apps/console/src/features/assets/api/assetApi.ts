import type { ApiBody, ApiResponse, ImportReport, PricePlanView } from '@voltdepot/console-api-client';
import { request, type FileResult, type QueryParams } from '../../../request';
import type { AssetKind, AssetRow, AssetRows } from '../types';

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

const EMPTY = { list: [], total: 0 };

/** A grid's row: typed by the api's document, readable field by field by the generic grid code. */
type RowOf<K extends AssetKind> = AssetRows[K] & AssetRow;
type Page<Row> = { list: Row[]; total: number };

export const assetApi = {
  async page<K extends AssetKind>(
    kind: K,
    page: number,
    size: number,
    filters: QueryParams,
    signal?: AbortSignal,
  ) {
    const path = fillPath(ASSET_PATHS.page, { kind, page, size });
    return (await request.get<Page<RowOf<K>>>(path, { params: filters, signal })) ?? EMPTY;
  },
  async get<K extends AssetKind>(kind: K, id: number, signal?: AbortSignal) {
    return request.get<RowOf<K>>(fillPath(ASSET_PATHS.row, { kind, id }), { signal });
  },
  create<K extends AssetKind>(kind: K, body: Record<string, unknown>) {
    return request.post<RowOf<K>>(fillPath(ASSET_PATHS.create, { kind }), body);
  },
  update<K extends AssetKind>(kind: K, id: number, body: Record<string, unknown>) {
    return request.put<RowOf<K>>(fillPath(ASSET_PATHS.row, { kind, id }), body);
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
    return request.post<ApiResponse<'PilesController_enable' | 'PilesController_deliver'>>(
      fillPath(ASSET_PATHS.pileBatch, { action }),
      { ids } satisfies ApiBody<'PilesController_enable'>,
    );
  },
  async unknownPiles(page: number, size: number, signal?: AbortSignal) {
    const path = fillPath(ASSET_PATHS.unknownPiles, { page, size });
    return (await request.get<ApiResponse<'PilesController_unknown'>>(path, { signal })) ?? EMPTY;
  },
  /** Saves the unknown-pile list as .xlsx; resolves with the saved name. */
  exportUnknownPiles(lang: string, fileName: string) {
    return request.exportExcel(ASSET_PATHS.unknownPilesExport, { params: { lang }, fileName });
  },
  registerUnknown(chargePointId: string, body: Record<string, unknown>) {
    return request.post<ApiResponse<'PilesController_register'>>(
      fillPath(ASSET_PATHS.registerUnknown, { chargePointId }),
      body,
    );
  },
  cardAction(id: number, action: CardActionName, physicalNumber?: string) {
    return request.post<ApiResponse<'CardsController_make'>>(
      fillPath(ASSET_PATHS.cardAction, { id, action }),
      physicalNumber === undefined ? {} : { physicalNumber },
    );
  },
  /** A picture, or (`sitePlan`) the station's site plan, replacing the one it had. */
  uploadPicture(stationId: number, file: File, sitePlan = false) {
    const form = new FormData();
    form.append('file', file);
    return request.post<ApiResponse<'StationPicturesController_upload'>>(
      fillPath(ASSET_PATHS.pictures, { id: stationId }),
      form,
      sitePlan ? { params: { sitePlan: 'true' } } : undefined,
    );
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
    return request.delete<ApiResponse<'StationPicturesController_remove'>>(
      fillPath(ASSET_PATHS.picture, { id: stationId, pictureId }),
    );
  },
  async dictionary(code: string, signal?: AbortSignal): Promise<ApiResponse<'DictionariesController_items'>> {
    return (
      (await request.get<ApiResponse<'DictionariesController_items'>>(
        fillPath(ASSET_PATHS.dictionary, { code }),
        {
          signal,
        },
      )) ?? []
    );
  },
  async pricePlans(signal?: AbortSignal): Promise<PricePlanView[]> {
    const path = fillPath(ASSET_PATHS.pricePlans, { page: 1, size: OPTIONS_PAGE_SIZE });
    return ((await request.get<ApiResponse<'PricePlansController_page'>>(path, { signal })) ?? EMPTY).list;
  },
  /** Links the plan to the station from `effectiveFrom` (an instant with offset; undefined: now). */
  assignPricePlan(stationId: number, planId: number, effectiveFrom: string | undefined) {
    return request.post<ApiResponse<'PricePlansController_assign'>>(
      fillPath(ASSET_PATHS.assignPricePlan, { stationId }),
      {
        planId,
        ...(effectiveFrom ? { effectiveFrom } : {}),
      } satisfies ApiBody<'PricePlansController_assign'>,
    );
  },
  /** The station's plan history, newest first. */
  async stationPricePlans(
    stationId: number,
    signal?: AbortSignal,
  ): Promise<ApiResponse<'PricePlansController_stationHistory'>> {
    return (
      (await request.get<ApiResponse<'PricePlansController_stationHistory'>>(
        fillPath(ASSET_PATHS.stationPricePlans, { stationId }),
        {
          signal,
        },
      )) ?? []
    );
  },
};
