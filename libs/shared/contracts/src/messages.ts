/** Message centre shapes (platform-and-messaging §3, §7). Base path of the HTTP API: `/ms/m1/msg`. */

export const MSG_API_BASE = '/ms/m1/msg';
/** STOMP 1.2 over WebSocket on the msg-center HTTP port. */
export const MSG_STOMP_PATH = '/ms/ws';
export const STOMP_INBOX_TOPIC = '/user/topic/m1/msg/inbox';
export const STOMP_STOP_NOTICE_TOPIC = '/user/topic/transRunStatusStop';

export const ChannelTypes = ['SMS', 'EMAIL', 'WECHAT', 'DDTALK', 'WEBSOCKET'] as const;
export type ChannelType = (typeof ChannelTypes)[number];
export const SmsProviders = ['ALIYUN', 'TENCENT'] as const;
export type SmsProvider = (typeof SmsProviders)[number];
export const DingTalkTypes = ['TEXT', 'LINK'] as const;
export type DingTalkType = (typeof DingTalkTypes)[number];
export const MsgStatuses = ['DEFAULT', 'DOWN', 'UP', 'EXCEPTION', 'SUCCESS', 'CUSTOM'] as const;
export type MsgStatus = (typeof MsgStatuses)[number];
export const AlertGroups = [
  'BUSINESS',
  'NODE',
  'WEB',
  'KAFKA',
  'REDIS',
  'CONNECTION',
  'HTTP',
  'MYSQL',
  'ORACLE',
] as const;
export type AlertGroup = (typeof AlertGroups)[number];
/** Event channel numbers: 0 SMS, 1 email, 2 WeChat, 3 DingTalk, 4 in-site message. */
export const EventChannels = { SMS: 0, EMAIL: 1, WECHAT: 2, DDTALK: 3, WEBSOCKET: 4 } as const;
export type EventChannel = (typeof EventChannels)[keyof typeof EventChannels];
export const MsgLevels = ['PROMPT', 'MINOR', 'IMPORTANT', 'EMERGENCY'] as const;
export type MsgLevel = (typeof MsgLevels)[number];
export const GroupTypes = ['ROLE', 'USER', 'NONE'] as const;
export type GroupType = (typeof GroupTypes)[number];
export const Frequencies = ['FIVE_MINUTES', 'THIRTY_MINUTES', 'HOURS', 'FOUR_HOURS', 'DAY', 'WEEK'] as const;
export type Frequency = (typeof Frequencies)[number];
export const ComparisonExpressions = ['GE', 'LE'] as const;
export type ComparisonExpression = (typeof ComparisonExpressions)[number];
export const JobTypes = ['KAFKA', 'REDIS', 'JAVA', 'HTTP', 'CONNECTION', 'NODE'] as const;
export type JobType = (typeof JobTypes)[number];
/** Template type: '0' none, '1' link, '2' email. */
export const TemplateTypes = ['0', '1', '2'] as const;
export type TemplateType = (typeof TemplateTypes)[number];
export const SendStatuses = ['PENDING', 'SUCCESS', 'FAILED', 'RETRYING'] as const;
export type SendStatus = (typeof SendStatuses)[number];

/** Permission codes the message centre checks (resource codes granted through roles). */
export const MsgPermissions = {
  Config: 'msg:config',
  Template: 'msg:template',
  Group: 'msg:group',
  Event: 'msg:event',
  Alerts: 'msg:alerts',
  /** Receives realtime charging-stop notices. */
  StopNotice: 'msg:stopNotice',
} as const;

export type MsgConfigDto = {
  id: number;
  configName: string;
  fullName: string;
  channel: ChannelType;
  provider: string | null;
  /** Credentials are masked ('******'); send the mask back to keep a stored value. */
  settings: Record<string, unknown>;
  status: string;
  username: string | null;
  createTime: string;
  updateTime: string;
};

export type MsgTemplateDto = {
  id: number;
  configId: number;
  templateName: string;
  config: { configName: string; fullName: string };
  content: string | null;
  msgKey: string | null;
  type: TemplateType;
  parameters: Record<string, string>;
  username: string | null;
  editable: boolean;
  createTime: string;
  updateTime: string;
};

export type MsgGroupDto = {
  id: number;
  name: string;
  type: GroupType;
  memberIds: number[];
  description: string | null;
  username: string | null;
  createTime: string;
  updateTime: string;
};

export type ReceiverOption = { id: number; name: string };

export type MsgEventRuleDto = {
  id: number;
  name: string;
  eventType: string;
  condition: Record<string, unknown>;
  templateId: number | null;
  groupId: number | null;
  channels: EventChannel[];
  level: MsgLevel;
  frequency: Frequency | null;
  enabled: boolean;
  username: string | null;
  createTime: string;
  updateTime: string;
};

export type MsgAlertDto = {
  id: number;
  name: string;
  alertGroup: AlertGroup;
  jobType: JobType;
  target: string;
  expression: ComparisonExpression;
  threshold: number;
  templateId: number | null;
  groupId: number | null;
  channels: EventChannel[];
  level: MsgLevel;
  frequency: Frequency | null;
  status: MsgStatus;
  enabled: boolean;
  lastValue: number | null;
  lastCheckedAt: string | null;
  username: string | null;
  createTime: string;
  updateTime: string;
};

export type SendLogDto = {
  id: number;
  jobId: string;
  eventKey: string;
  ruleKind: string;
  ruleId: number | null;
  channel: EventChannel;
  receiverUserId: number | null;
  receiver: string;
  title: string | null;
  content: string | null;
  status: SendStatus;
  attempts: number;
  /** The provider's error of the last failed attempt. */
  error: string | null;
  createTime: string;
  sentTime: string | null;
};

/** Inbox message (§3). Times are `yyyy-MM-dd HH:mm:ss` in the business time zone. */
export type InboxMessageDto = {
  id: number;
  title: string;
  content: string;
  sender: string;
  sendTime: string;
  isRead: boolean;
};

/**
 * Realtime stop notice on /user/topic/transRunStatusStop: type 1 normal, otherwise abnormal. A stop is
 * pushed once; when its order is settled later, the same notice (same `key`) is pushed again with the
 * amount, and a console updates the notice it shows rather than showing another. When the order was
 * settled first, the one push carries the amount.
 */
export type StopNotice = {
  type: number;
  msg: string;
  date: string;
  /** `<chargePointId>/<transactionId>`: the transaction the notice is about. */
  key?: string;
  /** The settled order's amount in fen; absent until the order is settled. */
  amountFen?: number;
  /** True when the order was held for review as abnormal (its amount is not billed). */
  orderHeld?: boolean;
  /**
   * What `msg` says, as data, so a console shows it in its user's language (`msg` is the Chinese text
   * that is read aloud). Absent in notices of older servers: the console then shows `msg`.
   */
  stop?: {
    chargePointId: string;
    connectorId: number;
    transactionId: number;
    /** OCPP 1.6 stop reason (STOP_REASON_LABELS). */
    reason: string;
    energyWh?: number;
  };
};

/**
 * Bodies pushed on /user/topic/m1/msg/inbox, and bodies a client SENDs to `/app/...`: a body that names
 * a `handler` is run by the receiver, any other body is broadcast as an event.
 */
export type InboxPush =
  | { handler: 'inbox.unread'; command: 'unread'; data: InboxMessageDto[] }
  | { handler: 'inbox.new'; command: 'new'; data: InboxMessageDto };

export type DictTreeNode = {
  id: number;
  code: string;
  name: string;
  value: string | null;
  children: DictTreeNode[];
};

/** Prometheus HTTP service discovery entry (GET /ms/m1/msg/prometheus/targets?job=). */
export type PrometheusTargetGroup = { targets: string[]; labels: Record<string, string> };

/** Error codes of the message centre. */
export const MsgErrorCodes = {
  ConfigNotFound: 'MSG_CONFIG_NOT_FOUND',
  ConfigInUse: 'MSG_CONFIG_IN_USE',
  ConfigNameTaken: 'MSG_CONFIG_NAME_TAKEN',
  TemplateNotFound: 'MSG_TEMPLATE_NOT_FOUND',
  TemplateNotEditable: 'MSG_TEMPLATE_NOT_EDITABLE',
  TemplateInUse: 'MSG_TEMPLATE_IN_USE',
  TemplateVariableMissing: 'MSG_TEMPLATE_VARIABLE_MISSING',
  GroupNotFound: 'MSG_GROUP_NOT_FOUND',
  GroupNameTaken: 'MSG_GROUP_NAME_TAKEN',
  GroupInUse: 'MSG_GROUP_IN_USE',
  EventNotFound: 'MSG_EVENT_NOT_FOUND',
  AlertNotFound: 'MSG_ALERT_NOT_FOUND',
} as const;
export type MsgErrorCode = (typeof MsgErrorCodes)[keyof typeof MsgErrorCodes];
