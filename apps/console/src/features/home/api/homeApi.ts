import { apiPath, type ApiResponse } from '@voltdepot/console-api-client';
import { request } from '../../../request';

/** The home page's figures of the day (GET /api/overview/today, resource `home`). */
export const homeApi = {
  today: (signal?: AbortSignal) =>
    request.get<ApiResponse<'OverviewController_today'>>(apiPath('OverviewController_today'), { signal }),
};
