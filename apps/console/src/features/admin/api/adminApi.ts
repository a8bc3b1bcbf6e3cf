import { apiPath, type ApiBody, type ApiQuery, type ApiResponse } from '@voltdepot/console-api-client';
import { request, type QueryParams } from '../../../request';

export type {
  ImportProgress,
  ImportReport,
  ImportRowError,
  PlatformConfigRow,
} from '@voltdepot/console-api-client';

const emptyPage = { list: [], total: 0 };

/** An import can hash up to 1000 passwords: give it longer than the default 120 s. */
const IMPORT_TIMEOUT_MS = 600_000;

export const adminApi = {
  // Users
  userPage: async (page: number, size: number, params: QueryParams, signal?: AbortSignal) =>
    (await request.get<ApiResponse<'UsersController_page'>>(apiPath('UsersController_page', { page, size }), {
      params,
      signal,
    })) ?? emptyPage,
  createUser: (body: ApiBody<'UsersController_create'>) =>
    request.post<ApiResponse<'UsersController_create'>>(apiPath('UsersController_create'), body),
  updateUser: (id: number, body: ApiBody<'UsersController_update'>) =>
    request.put<ApiResponse<'UsersController_update'>>(apiPath('UsersController_update', { id }), body),
  deleteUser: (id: number) =>
    request.delete<ApiResponse<'UsersController_remove'>>(apiPath('UsersController_remove', { id })),
  setUserEnabled: (id: number, enabled: boolean) =>
    request.put<ApiResponse<'UsersController_setEnabled'>>(apiPath('UsersController_setEnabled', { id }), {
      enabled,
    } satisfies ApiBody<'UsersController_setEnabled'>),
  resetPassword: (id: number, password: string) =>
    request.post<ApiResponse<'UsersController_resetPassword'>>(
      apiPath('UsersController_resetPassword', { id }),
      {
        password,
      } satisfies ApiBody<'UsersController_resetPassword'>,
    ),
  resetTotp: (id: number) =>
    request.delete<ApiResponse<'UsersController_resetTotp'>>(apiPath('UsersController_resetTotp', { id })),
  copyUser: (id: number, body: ApiBody<'UsersController_copy'>) =>
    request.post<ApiResponse<'UsersController_copy'>>(apiPath('UsersController_copy', { id }), body),
  userRoles: async (id: number, signal?: AbortSignal) =>
    (await request.get<ApiResponse<'UsersController_roles'>>(apiPath('UsersController_roles', { id }), {
      signal,
    })) ?? {
      roleIds: [],
    },
  setUserRoles: (id: number, roleIds: number[]) =>
    request.put<ApiResponse<'UsersController_setRoles'>>(apiPath('UsersController_setRoles', { id }), {
      roleIds,
    } satisfies ApiBody<'UsersController_setRoles'>),
  exportUsers: (params: QueryParams) =>
    request.exportExcel(apiPath('UsersSpreadsheetController_export'), { params }),
  userImportTemplate: (lang: string) =>
    request.exportExcel(apiPath('UsersSpreadsheetController_template'), { params: { lang } }),
  importUsers: (file: File, params: { lang: string; progressId: string }) => {
    const body = new FormData();
    body.append('file', file);
    return request.post<ApiResponse<'UsersSpreadsheetController_import'>>(
      apiPath('UsersSpreadsheetController_import'),
      body,
      {
        params,
        timeout: IMPORT_TIMEOUT_MS,
      },
    );
  },
  importProgress: (progressId: string, signal?: AbortSignal) =>
    request.get<ApiResponse<'UsersSpreadsheetController_progress'>>(
      apiPath('UsersSpreadsheetController_progress', { progressId }),
      { signal },
    ),

  // Roles
  rolePage: async (page: number, size: number, params: QueryParams, signal?: AbortSignal) =>
    (await request.get<ApiResponse<'RolesController_page'>>(apiPath('RolesController_page', { page, size }), {
      params,
      signal,
    })) ?? emptyPage,
  allRoles: async (signal?: AbortSignal) =>
    (await request.get<ApiResponse<'RolesController_all'>>(apiPath('RolesController_all'), { signal })) ?? [],
  createRole: (body: ApiBody<'RolesController_create'>) =>
    request.post<ApiResponse<'RolesController_create'>>(apiPath('RolesController_create'), body),
  updateRole: (id: number, body: ApiBody<'RolesController_update'>) =>
    request.put<ApiResponse<'RolesController_update'>>(apiPath('RolesController_update', { id }), body),
  deleteRole: (id: number) =>
    request.delete<ApiResponse<'RolesController_remove'>>(apiPath('RolesController_remove', { id })),
  /** The role's resources and the whole tree (needs only sys:role:menuAuth). */
  roleResources: async (id: number, signal?: AbortSignal) =>
    (await request.get<ApiResponse<'RolesController_resources'>>(
      apiPath('RolesController_resources', { id }),
      {
        signal,
      },
    )) ?? { resourceIds: [], tree: [] },
  setRoleResources: (id: number, resourceIds: number[]) =>
    request.put<ApiResponse<'RolesController_setResources'>>(
      apiPath('RolesController_setResources', { id }),
      {
        resourceIds,
      } satisfies ApiBody<'RolesController_setResources'>,
    ),
  /** The role's organisations and the caller's subtrees (needs only sys:role:dataAuth). */
  roleOrganizations: async (id: number, signal?: AbortSignal) =>
    (await request.get<ApiResponse<'RolesController_organizations'>>(
      apiPath('RolesController_organizations', { id }),
      {
        signal,
      },
    )) ?? { organizationIds: [], tree: [] },
  setRoleOrganizations: (id: number, organizationIds: number[]) =>
    request.put<ApiResponse<'RolesController_setOrganizations'>>(
      apiPath('RolesController_setOrganizations', { id }),
      {
        organizationIds,
      } satisfies ApiBody<'RolesController_setOrganizations'>,
    ),

  // Organisations, resources, dictionaries
  organizationTree: async (signal?: AbortSignal) =>
    (await request.get<ApiResponse<'OrganizationsController_tree'>>(apiPath('OrganizationsController_tree'), {
      signal,
    })) ?? [],
  createOrganization: (body: ApiBody<'OrganizationsController_create'>) =>
    request.post<ApiResponse<'OrganizationsController_create'>>(
      apiPath('OrganizationsController_create'),
      body,
    ),
  updateOrganization: (id: number, body: ApiBody<'OrganizationsController_update'>) =>
    request.put<ApiResponse<'OrganizationsController_update'>>(
      apiPath('OrganizationsController_update', { id }),
      body,
    ),
  deleteOrganization: (id: number) =>
    request.delete<ApiResponse<'OrganizationsController_remove'>>(
      apiPath('OrganizationsController_remove', { id }),
    ),
  resourceTree: async (signal?: AbortSignal) =>
    (await request.get<ApiResponse<'ResourcesController_tree'>>(apiPath('ResourcesController_tree'), {
      signal,
    })) ?? [],
  createResource: (body: ApiBody<'ResourcesController_create'>) =>
    request.post<ApiResponse<'ResourcesController_create'>>(apiPath('ResourcesController_create'), body),
  updateResource: (id: number, body: ApiBody<'ResourcesController_update'>) =>
    request.put<ApiResponse<'ResourcesController_update'>>(
      apiPath('ResourcesController_update', { id }),
      body,
    ),
  deleteResource: (id: number) =>
    request.delete<ApiResponse<'ResourcesController_remove'>>(apiPath('ResourcesController_remove', { id })),
  dictTree: async (signal?: AbortSignal) =>
    (await request.get<ApiResponse<'DictionariesController_tree'>>(apiPath('DictionariesController_tree'), {
      signal,
    })) ?? [],
  dictItems: async (code: string, signal?: AbortSignal) =>
    (await request.get<ApiResponse<'DictionariesController_items'>>(
      apiPath('DictionariesController_items', { code }),
      {
        signal,
      },
    )) ?? [],
  createDict: (body: ApiBody<'DictionariesController_create'>) =>
    request.post<ApiResponse<'DictionariesController_create'>>(
      apiPath('DictionariesController_create'),
      body,
    ),
  updateDict: (id: number, body: ApiBody<'DictionariesController_update'>) =>
    request.put<ApiResponse<'DictionariesController_update'>>(
      apiPath('DictionariesController_update', { id }),
      body,
    ),
  deleteDict: (id: number) =>
    request.delete<ApiResponse<'DictionariesController_remove'>>(
      apiPath('DictionariesController_remove', { id }),
    ),

  // Platform settings, system parameters, third-party settings
  configPage: async (
    category: NonNullable<ApiQuery<'PlatformConfigController_page'>['category']>,
    page: number,
    size: number,
    signal?: AbortSignal,
  ) =>
    (await request.get<ApiResponse<'PlatformConfigController_page'>>(
      apiPath('PlatformConfigController_page', { page, size }),
      {
        params: { category },
        signal,
      },
    )) ?? emptyPage,
  createConfig: (body: ApiBody<'PlatformConfigController_create'>) =>
    request.post<ApiResponse<'PlatformConfigController_create'>>(
      apiPath('PlatformConfigController_create'),
      body,
    ),
  updateConfig: (configKey: string, body: ApiBody<'PlatformConfigController_update'>) =>
    request.put<ApiResponse<'PlatformConfigController_update'>>(
      apiPath('PlatformConfigController_update', { configKey }),
      body,
    ),
  /** Several settings in one transaction: all are checked first, then all or none are saved. */
  updateConfigs: (items: ApiBody<'PlatformConfigController_updateMany'>['items']) =>
    request.put<ApiResponse<'PlatformConfigController_updateMany'>>(
      apiPath('PlatformConfigController_updateMany'),
      {
        items,
      },
    ),
  deleteConfig: (configKey: string) =>
    request.delete<ApiResponse<'PlatformConfigController_remove'>>(
      apiPath('PlatformConfigController_remove', { configKey }),
    ),

  // The caller's own second factor
  enrolTotp: () => request.post<ApiResponse<'TotpController_enroll'>>(apiPath('TotpController_enroll')),
  activateTotp: (code: string) =>
    request.post<ApiResponse<'TotpController_activate'>>(apiPath('TotpController_activate'), {
      code,
    } satisfies ApiBody<'TotpController_activate'>),
  disableTotp: (password: string) =>
    request.post<ApiResponse<'TotpController_disable'>>(apiPath('TotpController_disable'), {
      password,
    } satisfies ApiBody<'TotpController_disable'>),
  startRequiredEnrolment: (enrolmentToken: string) =>
    request.post<ApiResponse<'TotpEnrolmentController_start'>>(apiPath('TotpEnrolmentController_start'), {
      enrolmentToken,
    } satisfies ApiBody<'TotpEnrolmentController_start'>),
  completeRequiredEnrolment: (enrolmentToken: string, code: string) =>
    request.post<ApiResponse<'TotpEnrolmentController_complete'>>(
      apiPath('TotpEnrolmentController_complete'),
      {
        enrolmentToken,
        code,
      } satisfies ApiBody<'TotpEnrolmentController_complete'>,
    ),
};
