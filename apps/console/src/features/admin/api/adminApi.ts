import { apiPath } from '@voltdepot/console-api-client';
import type {
  CopyUserRequest,
  CreateUserRequest,
  DictNode,
  GridPage,
  OrganizationNode,
  RequiredEnrolmentResult,
  ResourceNode,
  RoleOrganizationsView,
  RoleResourcesView,
  RoleView,
  TotpActivation,
  TotpEnrolment,
  UpdateUserRequest,
  UserView,
} from '@voltdepot/shared-contracts';
import { request, type QueryParams } from '../../../request';

/** Spec §9: grid page size 10. */
export const ADMIN_PAGE_SIZE = 10;

const emptyPage = <T>(): GridPage<T> => ({ list: [], total: 0 });

export type ConfigCategory = 'platform' | 'system' | 'third_party';
export type PlatformConfigRow = {
  configKey: string;
  configValue: string;
  category: ConfigCategory;
  isPublic: boolean;
  builtin: boolean;
  description: string | null;
  updatedBy: string | null;
  updatedAt: string;
};

export type RoleRequest = { code: string; name: string; description?: string | null };
export type OrganizationRequest = { parentId: number; code: string; name: string; sort?: number };
export type ResourceRequest = {
  parentId?: number | null;
  type: 'menu' | 'button';
  code: string;
  name: string;
  path?: string | null;
  icon?: string | null;
  sort?: number;
  visible?: boolean;
};
export type DictRequest = {
  parentId?: number | null;
  code: string;
  name: string;
  value?: string | null;
  sort?: number;
  enabled?: boolean;
};

/** Imports are all or nothing: one bad row and nothing is imported. */
export type ImportMode = 'all';
export type ImportRowError = {
  row: number;
  column: string | null;
  header: string | null;
  field: string;
  message: string;
};
export type ImportReport = {
  mode: ImportMode;
  total: number;
  imported: number;
  failed: number;
  errors: ImportRowError[];
};
export type ImportProgress = {
  phase: 'validating' | 'saving' | 'done' | 'failed';
  processed: number;
  total: number;
};

/** An import can hash up to 1000 passwords: give it longer than the default 120 s. */
const IMPORT_TIMEOUT_MS = 600_000;

export const adminApi = {
  // Users
  userPage: async (page: number, size: number, params: QueryParams, signal?: AbortSignal) =>
    (await request.get<GridPage<UserView>>(apiPath('UsersController_page', { page, size }), {
      params,
      signal,
    })) ?? emptyPage<UserView>(),
  createUser: (body: CreateUserRequest) => request.post<UserView>(apiPath('UsersController_create'), body),
  updateUser: (id: number, body: UpdateUserRequest) =>
    request.put<UserView>(apiPath('UsersController_update', { id }), body),
  deleteUser: (id: number) => request.delete<void>(apiPath('UsersController_remove', { id })),
  setUserEnabled: (id: number, enabled: boolean) =>
    request.put<UserView>(apiPath('UsersController_setEnabled', { id }), { enabled }),
  resetPassword: (id: number, password: string) =>
    request.post<void>(apiPath('UsersController_resetPassword', { id }), { password }),
  resetTotp: (id: number) => request.delete<void>(apiPath('UsersController_resetTotp', { id })),
  copyUser: (id: number, body: CopyUserRequest) =>
    request.post<UserView>(apiPath('UsersController_copy', { id }), body),
  userRoles: async (id: number, signal?: AbortSignal) =>
    (await request.get<{ roleIds: number[] }>(apiPath('UsersController_roles', { id }), { signal })) ?? {
      roleIds: [],
    },
  setUserRoles: (id: number, roleIds: number[]) =>
    request.put<{ roleIds: number[] }>(apiPath('UsersController_setRoles', { id }), { roleIds }),
  exportUsers: (params: QueryParams) =>
    request.exportExcel(apiPath('UsersSpreadsheetController_export'), { params }),
  userImportTemplate: (lang: string) =>
    request.exportExcel(apiPath('UsersSpreadsheetController_template'), { params: { lang } }),
  importUsers: (file: File, params: { lang: string; progressId: string }) => {
    const body = new FormData();
    body.append('file', file);
    return request.post<ImportReport>(apiPath('UsersSpreadsheetController_import'), body, {
      params,
      timeout: IMPORT_TIMEOUT_MS,
    });
  },
  importProgress: (progressId: string, signal?: AbortSignal) =>
    request.get<ImportProgress>(apiPath('UsersSpreadsheetController_progress', { progressId }), { signal }),

  // Roles
  rolePage: async (page: number, size: number, params: QueryParams, signal?: AbortSignal) =>
    (await request.get<GridPage<RoleView>>(apiPath('RolesController_page', { page, size }), {
      params,
      signal,
    })) ?? emptyPage<RoleView>(),
  allRoles: async (signal?: AbortSignal) =>
    (await request.get<RoleView[]>(apiPath('RolesController_all'), { signal })) ?? [],
  createRole: (body: RoleRequest) => request.post<RoleView>(apiPath('RolesController_create'), body),
  updateRole: (id: number, body: Partial<RoleRequest>) =>
    request.put<RoleView>(apiPath('RolesController_update', { id }), body),
  deleteRole: (id: number) => request.delete<void>(apiPath('RolesController_remove', { id })),
  /** The role's resources and the whole tree (needs only sys:role:menuAuth). */
  roleResources: async (id: number, signal?: AbortSignal) =>
    (await request.get<RoleResourcesView>(apiPath('RolesController_resources', { id }), {
      signal,
    })) ?? { resourceIds: [], tree: [] },
  setRoleResources: (id: number, resourceIds: number[]) =>
    request.put<{ resourceIds: number[] }>(apiPath('RolesController_setResources', { id }), {
      resourceIds,
    }),
  /** The role's organisations and the caller's subtrees (needs only sys:role:dataAuth). */
  roleOrganizations: async (id: number, signal?: AbortSignal) =>
    (await request.get<RoleOrganizationsView>(apiPath('RolesController_organizations', { id }), {
      signal,
    })) ?? { organizationIds: [], tree: [] },
  setRoleOrganizations: (id: number, organizationIds: number[]) =>
    request.put<{ organizationIds: number[] }>(apiPath('RolesController_setOrganizations', { id }), {
      organizationIds,
    }),

  // Organisations, resources, dictionaries
  organizationTree: async (signal?: AbortSignal) =>
    (await request.get<OrganizationNode[]>(apiPath('OrganizationsController_tree'), { signal })) ?? [],
  createOrganization: (body: OrganizationRequest) =>
    request.post<OrganizationNode>(apiPath('OrganizationsController_create'), body),
  updateOrganization: (id: number, body: Partial<OrganizationRequest>) =>
    request.put<OrganizationNode>(apiPath('OrganizationsController_update', { id }), body),
  deleteOrganization: (id: number) => request.delete<void>(apiPath('OrganizationsController_remove', { id })),
  resourceTree: async (signal?: AbortSignal) =>
    (await request.get<ResourceNode[]>(apiPath('ResourcesController_tree'), { signal })) ?? [],
  createResource: (body: ResourceRequest) =>
    request.post<ResourceNode>(apiPath('ResourcesController_create'), body),
  updateResource: (id: number, body: Partial<ResourceRequest>) =>
    request.put<ResourceNode>(apiPath('ResourcesController_update', { id }), body),
  deleteResource: (id: number) => request.delete<void>(apiPath('ResourcesController_remove', { id })),
  dictTree: async (signal?: AbortSignal) =>
    (await request.get<DictNode[]>(apiPath('DictionariesController_tree'), { signal })) ?? [],
  dictItems: async (code: string, signal?: AbortSignal) =>
    (await request.get<DictNode[]>(apiPath('DictionariesController_items', { code }), { signal })) ?? [],
  createDict: (body: DictRequest) => request.post<DictNode>(apiPath('DictionariesController_create'), body),
  updateDict: (id: number, body: Partial<DictRequest>) =>
    request.put<DictNode>(apiPath('DictionariesController_update', { id }), body),
  deleteDict: (id: number) => request.delete<void>(apiPath('DictionariesController_remove', { id })),

  // Platform settings, system parameters, third-party settings
  configPage: async (category: ConfigCategory, page: number, size: number, signal?: AbortSignal) =>
    (await request.get<GridPage<PlatformConfigRow>>(
      apiPath('PlatformConfigController_page', { page, size }),
      {
        params: { category },
        signal,
      },
    )) ?? emptyPage<PlatformConfigRow>(),
  createConfig: (body: {
    configKey: string;
    configValue: string;
    category: 'system' | 'third_party';
    description?: string | null;
  }) => request.post<PlatformConfigRow>(apiPath('PlatformConfigController_create'), body),
  updateConfig: (configKey: string, body: { configValue: string; description?: string | null }) =>
    request.put<PlatformConfigRow>(apiPath('PlatformConfigController_update', { configKey }), body),
  /** Several settings in one transaction: all are checked first, then all or none are saved. */
  updateConfigs: (items: { configKey: string; configValue: string }[]) =>
    request.put<PlatformConfigRow[]>(apiPath('PlatformConfigController_updateMany'), { items }),
  deleteConfig: (configKey: string) =>
    request.delete<void>(apiPath('PlatformConfigController_remove', { configKey })),

  // The caller's own second factor
  enrolTotp: () => request.post<TotpEnrolment>(apiPath('TotpController_enroll')),
  activateTotp: (code: string) => request.post<TotpActivation>(apiPath('TotpController_activate'), { code }),
  disableTotp: (password: string) => request.post<void>(apiPath('TotpController_disable'), { password }),
  startRequiredEnrolment: (enrolmentToken: string) =>
    request.post<TotpEnrolment>(apiPath('TotpEnrolmentController_start'), { enrolmentToken }),
  completeRequiredEnrolment: (enrolmentToken: string, code: string) =>
    request.post<RequiredEnrolmentResult>(apiPath('TotpEnrolmentController_complete'), {
      enrolmentToken,
      code,
    }),
};
