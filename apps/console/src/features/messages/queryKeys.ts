/** react-query keys of the message-centre screens; a mutation invalidates its resource's key. */
export const msgQueryKeys = {
  all: ['messages'] as const,
  dictionaries: (codes: readonly string[]) => ['messages', 'dictionaries', [...codes].sort()] as const,
  grid: (resource: MsgResource) => ['messages', resource] as const,
  page: (resource: MsgResource, params: Record<string, unknown>) =>
    ['messages', resource, 'page', params] as const,
  configList: ['messages', 'config', 'all'] as const,
  templateList: ['messages', 'template', 'all'] as const,
  groupList: ['messages', 'group', 'all'] as const,
  receivers: (kind: 'role' | 'user') => ['messages', 'receivers', kind] as const,
};

export type MsgResource = 'config' | 'template' | 'group' | 'event' | 'alerts' | 'sendLog';
