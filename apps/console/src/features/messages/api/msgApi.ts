import {
  msgPath,
  type MsgBody,
  type MsgOperationId,
  type MsgOperationTypes,
  type MsgPathParams,
  type MsgQuery,
  type MsgResponse,
} from '@voltdepot/console-api-client';
import type { EventChannel } from '@voltdepot/shared-contracts';
import { request as defaultRequest, type QueryParams, type RequestClient } from '../../../request';

/** Spec §9: grid page size 10; the all-groups list is page 1, size 100. */
export const MSG_PAGE_SIZE = 10;
export const ALL_GROUPS_PAGE = { page: 1, size: 100 } as const;
/** The event and alert dialogs list templates the same way. */
export const ALL_TEMPLATES_PAGE = { page: 1, size: 100 } as const;

/** The bodies the dialogs send (msg-center's generated client). */
export type ConfigRequest = MsgBody<'ConfigsController_create'>;
export type GroupRequest = MsgBody<'GroupsController_create'>;
export type EventRuleRequest = MsgBody<'EventRulesController_create'>;
export type AlertRequest = MsgBody<'AlertsController_create'>;

/**
 * What event rules and alerts share: what to send, to whom, where, how urgent and how often (the
 * console always sends channels, level and enabled; its channels are the five of the spec).
 */
export type RuleDelivery = Pick<EventRuleRequest, 'templateId' | 'groupId' | 'frequency'> &
  Required<Pick<EventRuleRequest, 'level' | 'enabled'>> & { channels: EventChannel[] };

export type Created = MsgResponse<'ConfigsController_create'>;

const EMPTY = { list: [], total: 0 };

type Client = Pick<RequestClient, 'get' | 'post' | 'put' | 'delete'>;

/** The operations (of msg-center's generated client) behind one grid resource. */
type CrudOperations = {
  page: MsgOperationId & keyof MsgOperationTypes;
  create: MsgOperationId & keyof MsgOperationTypes;
  update: MsgOperationId & keyof MsgOperationTypes;
  remove: MsgOperationId & keyof MsgOperationTypes;
};

/**
 * The grid, create, update and delete calls of one resource under ms/m1/msg (spec §7): paths from
 * `msgPath`, answers and bodies typed by the generated client. `Extra` is what the console sends beyond
 * the documented body (the template's id on edit, spec §5).
 */
function crud<Ops extends CrudOperations, Extra = unknown>(request: Client, ops: Ops) {
  type Page = MsgResponse<Ops['page']>;
  return {
    page: async (page: number, size: number, params: QueryParams = {}, signal?: AbortSignal): Promise<Page> =>
      (await request.get<Page>(msgPath(ops.page, { page, size } as MsgPathParams<Ops['page']>), {
        params,
        signal,
      })) ?? (EMPTY as Page),
    create: (body: MsgBody<Ops['create']>) =>
      request.post<MsgResponse<Ops['create']>>(msgPath(ops.create), body),
    update: (id: number, body: MsgBody<Ops['update']> & Extra) =>
      request.put<MsgResponse<Ops['update']>>(
        msgPath(ops.update, { id } as MsgPathParams<Ops['update']>),
        body,
      ),
    /** True when the server deleted the row; an error answer shows its message and rejects. */
    remove: async (id: number) =>
      Boolean(
        await request.delete<MsgResponse<Ops['remove']>>(
          msgPath(ops.remove, { id } as MsgPathParams<Ops['remove']>),
        ),
      ),
  };
}

/** The message centre's management calls; the request client can be injected. */
export function createMsgApi(request: Client = defaultRequest) {
  return {
    /** Dictionary types by code (e.g. message_type) with their items as children. */
    dictionaries: async (codes: readonly string[], signal?: AbortSignal) =>
      (await request.get<MsgResponse<'DictionariesController_tree_alias1'>>(
        msgPath('DictionariesController_tree_alias1'),
        {
          params: { code: codes.join(',') } satisfies MsgQuery<'DictionariesController_tree_alias1'>,
          signal,
        },
      )) ?? [],
    configs: {
      ...crud(request, {
        page: 'ConfigsController_page',
        create: 'ConfigsController_create',
        update: 'ConfigsController_update',
        remove: 'ConfigsController_delete',
      }),
      /** Every configuration (the template dialog's list). */
      all: async (signal?: AbortSignal) =>
        (await request.get<MsgResponse<'ConfigsController_all'>>(msgPath('ConfigsController_all'), {
          signal,
        })) ?? [],
    },
    /** On edit the id travels in the body too (spec §5). */
    templates: crud<
      {
        page: 'TemplatesController_page';
        create: 'TemplatesController_create';
        update: 'TemplatesController_update';
        remove: 'TemplatesController_delete';
      },
      { id?: number }
    >(request, {
      page: 'TemplatesController_page',
      create: 'TemplatesController_create',
      update: 'TemplatesController_update',
      remove: 'TemplatesController_delete',
    }),
    groups: {
      ...crud(request, {
        page: 'GroupsController_page',
        create: 'GroupsController_create',
        update: 'GroupsController_update',
        remove: 'GroupsController_delete',
      }),
      roles: async (signal?: AbortSignal) =>
        (await request.get<MsgResponse<'GroupsController_roles'>>(msgPath('GroupsController_roles'), {
          signal,
        })) ?? [],
      users: async (signal?: AbortSignal) =>
        (await request.get<MsgResponse<'GroupsController_users'>>(msgPath('GroupsController_users'), {
          signal,
        })) ?? [],
    },
    events: crud(request, {
      page: 'EventRulesController_page',
      create: 'EventRulesController_create',
      update: 'EventRulesController_update',
      remove: 'EventRulesController_delete',
    }),
    alerts: crud(request, {
      page: 'AlertsController_page',
      create: 'AlertsController_create',
      update: 'AlertsController_update',
      remove: 'AlertsController_delete',
    }),
    sendLogs: {
      page: async (page: number, size: number, params: QueryParams = {}, signal?: AbortSignal) =>
        (await request.get<MsgResponse<'SendLogsController_page'>>(
          msgPath('SendLogsController_page', { page, size }),
          { params, signal },
        )) ?? EMPTY,
    },
  };
}

export type MsgApi = ReturnType<typeof createMsgApi>;

export const msgApi = createMsgApi();
