import {
  MSG_API_BASE,
  type AlertGroup,
  type ComparisonExpression,
  type DictTreeNode,
  type EventChannel,
  type Frequency,
  type GridPage,
  type GroupType,
  type JobType,
  type MsgAlertDto,
  type MsgConfigDto,
  type MsgEventRuleDto,
  type MsgGroupDto,
  type MsgLevel,
  type MsgStatus,
  type MsgTemplateDto,
  type MsgTemplateRequest,
  type ReceiverOption,
  type SendLogDto,
} from '@voltdepot/shared-contracts';
import { request as defaultRequest, type QueryParams, type RequestClient } from '../../../request';

/** Spec §9: grid page size 10; the all-groups list is page 1, size 100. */
export const MSG_PAGE_SIZE = 10;
export const ALL_GROUPS_PAGE = { page: 1, size: 100 } as const;
/** The event and alert dialogs list templates the same way. */
export const ALL_TEMPLATES_PAGE = { page: 1, size: 100 } as const;

export type ConfigRequest = {
  configName: string;
  fullName: string;
  channel: MsgConfigDto['channel'];
  provider?: string | null;
  settings: Record<string, unknown>;
  status?: string;
};

export type GroupRequest = {
  name: string;
  type: GroupType;
  memberIds: number[];
  description?: string | null;
};

/** What event rules and alerts share: what to send, to whom, where, how urgent and how often. */
export type RuleDelivery = {
  templateId?: number | null;
  groupId?: number | null;
  channels: EventChannel[];
  level: MsgLevel;
  frequency?: Frequency | null;
  enabled: boolean;
};

export type EventRuleRequest = RuleDelivery & {
  name: string;
  eventType: string;
  condition: Record<string, string>;
};

export type AlertRequest = RuleDelivery & {
  name: string;
  alertGroup: AlertGroup;
  jobType: JobType;
  target: string;
  expression: ComparisonExpression;
  threshold: number;
  status: MsgStatus;
};

export type Created = { id: number };

const EMPTY = { list: [], total: 0 };
const path = (...parts: (string | number)[]) => [MSG_API_BASE, ...parts].join('/');

type Client = Pick<RequestClient, 'get' | 'post' | 'put' | 'delete'>;

/** The grid, create, update and delete calls of one resource under ms/m1/msg (spec §7). */
function crud<T, Body>(request: Client, resource: string) {
  return {
    page: async (page: number, size: number, params: QueryParams = {}, signal?: AbortSignal) =>
      (await request.get<GridPage<T>>(path(resource, 'page', page, 'size', size), { params, signal })) ??
      EMPTY,
    create: (body: Body) => request.post<Created>(path(resource), body),
    update: (id: number, body: Body) => request.put<Created>(path(resource, id), body),
    /** True when the server deleted the row; an error answer shows its message and rejects. */
    remove: async (id: number) => Boolean(await request.delete<boolean>(path(resource, id))),
  };
}

/** The message centre's management calls; the request client can be injected. */
export function createMsgApi(request: Client = defaultRequest) {
  return {
    /** Dictionary types by code (e.g. message_type) with their items as children. */
    dictionaries: async (codes: readonly string[], signal?: AbortSignal) =>
      (await request.get<DictTreeNode[]>(path('dictionaries', 'dict', 'tree'), {
        params: { code: codes.join(',') },
        signal,
      })) ?? [],
    configs: {
      ...crud<MsgConfigDto, ConfigRequest>(request, 'config'),
      /** Every configuration (the template dialog's list). */
      all: async (signal?: AbortSignal) =>
        (await request.get<MsgConfigDto[]>(path('config'), { signal })) ?? [],
    },
    /** On edit the id travels in the body too (spec §5). */
    templates: crud<MsgTemplateDto, MsgTemplateRequest & { id?: number }>(request, 'template'),
    groups: {
      ...crud<MsgGroupDto, GroupRequest>(request, 'group'),
      roles: async (signal?: AbortSignal) =>
        (await request.get<ReceiverOption[]>(path('receiver', 'role'), { signal })) ?? [],
      users: async (signal?: AbortSignal) =>
        (await request.get<ReceiverOption[]>(path('receiver', 'user'), { signal })) ?? [],
    },
    events: crud<MsgEventRuleDto, EventRuleRequest>(request, 'event'),
    alerts: crud<MsgAlertDto, AlertRequest>(request, 'alerts'),
    sendLogs: {
      page: async (page: number, size: number, params: QueryParams = {}, signal?: AbortSignal) =>
        (await request.get<GridPage<SendLogDto>>(path('send_log', 'page', page, 'size', size), {
          params,
          signal,
        })) ?? EMPTY,
    },
  };
}

export type MsgApi = ReturnType<typeof createMsgApi>;

export const msgApi = createMsgApi();
