import { useQuery } from '@tanstack/react-query';
import { usePermission } from '@voltdepot/console-ui';
import { ALL_GROUPS_PAGE, ALL_TEMPLATES_PAGE, msgApi } from '../api/msgApi';
import { MSG_PERMISSIONS } from '../permissions';
import { msgQueryKeys } from '../queryKeys';

/** Every message configuration (the template screen loads it when it opens, spec §2). */
export function useConfigList() {
  return useQuery({
    queryKey: msgQueryKeys.configList,
    queryFn: ({ signal }) => msgApi.configs.all(signal),
  });
}

/**
 * Templates for the event and alert dialogs. msg-center serves them under the template permission, so
 * they are asked for only when the user holds it (otherwise the dialog shows the stored id).
 */
export function useTemplateList() {
  const allowed = usePermission(MSG_PERMISSIONS.template.menu);
  return useQuery({
    queryKey: msgQueryKeys.templateList,
    queryFn: async ({ signal }) =>
      (await msgApi.templates.page(ALL_TEMPLATES_PAGE.page, ALL_TEMPLATES_PAGE.size, {}, signal)).list,
    enabled: allowed,
  });
}

/** The all-groups list (spec §9: page 1, size 100), under the group permission like the templates. */
export function useGroupList() {
  const allowed = usePermission(MSG_PERMISSIONS.group.menu);
  return useQuery({
    queryKey: msgQueryKeys.groupList,
    queryFn: async ({ signal }) =>
      (await msgApi.groups.page(ALL_GROUPS_PAGE.page, ALL_GROUPS_PAGE.size, {}, signal)).list,
    enabled: allowed,
  });
}

/** Roles or users a group can address (GET receiver/role, receiver/user). */
export function useReceivers(kind: 'role' | 'user', enabled = true) {
  return useQuery({
    queryKey: msgQueryKeys.receivers(kind),
    queryFn: ({ signal }) => (kind === 'role' ? msgApi.groups.roles(signal) : msgApi.groups.users(signal)),
    enabled,
  });
}
