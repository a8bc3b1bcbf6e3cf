import { useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useCallback, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { msgQueryKeys, type MsgResource } from '../queryKeys';

/**
 * Delete with a confirmation (title 'prompt'), then 'deleted successfully'. When msg-center refuses
 * (a template that is not editable, a group still used by a rule), the request layer shows the server's
 * message and nothing else happens.
 */
export function useDeleteAction(resource: MsgResource, onDeleted: () => void) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const queryClient = useQueryClient();
  const onDeletedRef = useRef(onDeleted);
  onDeletedRef.current = onDeleted;
  return useCallback(
    (remove: () => Promise<boolean>, content: string) =>
      modal.confirm({
        title: t('messages.common.prompt'),
        content,
        okText: t('common.ok'),
        cancelText: t('common.cancel'),
        onOk: async () => {
          let deleted: boolean;
          try {
            deleted = await remove();
          } catch {
            return; // the server's message is on screen already
          }
          if (!deleted) {
            void message.info(t('messages.common.deleteFailed'));
            return;
          }
          void message.success(t('messages.common.deleted'));
          await queryClient.invalidateQueries({ queryKey: msgQueryKeys.grid(resource) });
          onDeletedRef.current();
        },
      }),
    [t, modal, message, queryClient, resource],
  );
}
