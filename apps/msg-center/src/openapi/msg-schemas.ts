import {
  AlertGroups,
  ChannelTypes,
  ComparisonExpressions,
  Frequencies,
  GroupTypes,
  JobTypes,
  MsgLevels,
  MsgStatuses,
  SendStatuses,
  TemplateTypes,
} from '@voltdepot/shared-contracts';
import type {
  DictTreeNode,
  InboxMessageDto,
  MsgAlertDto,
  MsgConfigDto,
  MsgEventRuleDto,
  MsgGroupDto,
  MsgTemplateDto,
  PrometheusTargetGroup,
  ReceiverOption,
  SendLogDto,
} from '@voltdepot/shared-contracts';
import { z } from 'zod';
import { apiSchemas, exactly, gridPageOf } from '@voltdepot/server-core';

/**
 * The message service's response shapes as schemas, each checked at compile time to be exactly its
 * `*Dto` type of @voltdepot/shared-contracts (the console's pages and the STOMP pushes share those): the
 * source of the OpenAPI document's responses, and what the contract test checks real answers against
 * (strict: a field the document does not list fails it).
 */
const named = apiSchemas.named.bind(apiSchemas);

const time = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
  .describe('yyyy-MM-dd HH:mm:ss in the business time zone');
const id = z.number().int().positive();
const channel = z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3), z.literal(4)]);

export const updatedResponseSchema = named(
  'UpdatedResponse',
  z.object({ updated: z.number().int().min(0).describe('Messages changed') }).strict(),
);
export const deletedResponseSchema = z.boolean().describe('true when deleted');

export const msgConfigSchema = named(
  'MsgConfig',
  exactly<MsgConfigDto>()(
    z
      .object({
        id,
        configName: z.string(),
        fullName: z.string().describe('The message type the configuration serves'),
        channel: z.enum(ChannelTypes),
        provider: z.string().nullable().describe('ALIYUN | TENCENT for SMS, TEXT | LINK for DDTALK'),
        settings: z.record(z.unknown()).describe("Channel settings; credentials are masked as '******'"),
        status: z.string(),
        username: z.string().nullable(),
        createTime: time,
        updateTime: time,
      })
      .strict(),
  ),
);

export const msgTemplateSchema = named(
  'MsgTemplate',
  exactly<MsgTemplateDto>()(
    z
      .object({
        id,
        configId: id,
        templateName: z.string(),
        config: z.object({ configName: z.string(), fullName: z.string() }).strict(),
        content: z
          .string()
          .nullable()
          .describe('Sanitised rich text; ${XXX} variables are filled at send time'),
        msgKey: z.string().nullable().describe('Third-party template identifier'),
        type: z.enum(TemplateTypes).describe("'0' none, '1' link, '2' email"),
        parameters: z.record(z.string()),
        username: z.string().nullable().describe('Last operator'),
        editable: z.boolean(),
        createTime: time,
        updateTime: time,
      })
      .strict(),
  ),
);

export const msgGroupSchema = named(
  'MsgGroup',
  exactly<MsgGroupDto>()(
    z
      .object({
        id,
        name: z.string(),
        type: z.enum(GroupTypes),
        memberIds: z.array(id).describe('Role ids (ROLE) or user ids (USER)'),
        description: z.string().nullable(),
        username: z.string().nullable(),
        createTime: time,
        updateTime: time,
      })
      .strict(),
  ),
);

export const receiverOptionSchema = named(
  'ReceiverOption',
  exactly<ReceiverOption>()(z.object({ id, name: z.string() }).strict()),
);

const delivery = {
  templateId: id.nullable(),
  groupId: id.nullable(),
  channels: z.array(channel).describe('0 SMS, 1 email, 2 WeChat, 3 DingTalk, 4 in-site message'),
  level: z.enum(MsgLevels),
  frequency: z.enum(Frequencies).nullable().describe('At most one message per window per rule and target'),
  enabled: z.boolean(),
  username: z.string().nullable(),
  createTime: time,
  updateTime: time,
};

export const msgEventRuleSchema = named(
  'MsgEventRule',
  exactly<MsgEventRuleDto>()(
    z
      .object({
        id,
        name: z.string(),
        eventType: z.string(),
        condition: z.record(z.unknown()),
        ...delivery,
      })
      .strict(),
  ),
);

export const msgAlertSchema = named(
  'MsgAlert',
  exactly<MsgAlertDto>()(
    z
      .object({
        id,
        name: z.string(),
        alertGroup: z.enum(AlertGroups),
        jobType: z.enum(JobTypes),
        target: z.string(),
        expression: z.enum(ComparisonExpressions),
        threshold: z.number(),
        status: z.enum(MsgStatuses).describe('Of the last check: UP, EXCEPTION (threshold crossed), DOWN'),
        lastValue: z.number().nullable(),
        lastCheckedAt: time.nullable(),
        ...delivery,
      })
      .strict(),
  ),
);

export const sendLogSchema = named(
  'SendLog',
  exactly<SendLogDto>()(
    z
      .object({
        id,
        jobId: z.string(),
        eventKey: z.string(),
        ruleKind: z.string().describe('event | alert | manual'),
        ruleId: id.nullable(),
        channel,
        receiverUserId: id.nullable(),
        receiver: z.string(),
        title: z.string().nullable(),
        content: z.string().nullable(),
        status: z.enum(SendStatuses),
        attempts: z.number().int().min(0),
        error: z.string().nullable().describe("The provider's error of the last failed attempt"),
        createTime: time,
        sentTime: time.nullable(),
      })
      .strict(),
  ),
);

export const inboxMessageSchema = named(
  'InboxMessage',
  exactly<InboxMessageDto>()(
    z
      .object({
        id,
        title: z.string(),
        content: z.string(),
        sender: z.string(),
        sendTime: time,
        isRead: z.boolean(),
      })
      .strict(),
  ),
);

export const dictTreeNodeSchema: z.ZodType<DictTreeNode> = named(
  'DictTreeNode',
  z.lazy(() =>
    z
      .object({
        id,
        code: z.string(),
        name: z.string(),
        value: z.string().nullable(),
        children: z.array(dictTreeNodeSchema),
      })
      .strict(),
  ),
);

export const prometheusTargetGroupSchema = named(
  'PrometheusTargetGroup',
  exactly<PrometheusTargetGroup>()(
    z
      .object({
        targets: z.array(z.string()).describe('host:port (a URL for HTTP checks)'),
        labels: z
          .record(z.string())
          .describe('job, source (platform | alert | prometheus) and, per source, alert, level, health, ...'),
      })
      .strict(),
  ),
);

export const msgConfigPageSchema = gridPageOf('MsgConfigPage', msgConfigSchema);
export const msgTemplatePageSchema = gridPageOf('MsgTemplatePage', msgTemplateSchema);
export const msgGroupPageSchema = gridPageOf('MsgGroupPage', msgGroupSchema);
export const msgEventRulePageSchema = gridPageOf('MsgEventRulePage', msgEventRuleSchema);
export const msgAlertPageSchema = gridPageOf('MsgAlertPage', msgAlertSchema);
export const sendLogPageSchema = gridPageOf('SendLogPage', sendLogSchema);
export const inboxPageSchema = gridPageOf('InboxMessagePage', inboxMessageSchema);
