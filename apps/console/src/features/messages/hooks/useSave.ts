import { useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Created } from '../api/msgApi';
import { msgQueryKeys, type MsgResource } from '../queryKeys';

export type SaveMode = 'add' | 'edit';

/**
 * Saves a dialog (spec §8): 'added successfully' only when the answer carries the new id, 'modified
 * successfully' after an edit. Resolves true when saved (the dialog closes); an error answer has been
 * shown by the request layer and leaves the dialog open.
 */
export function useSave(resource: MsgResource) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  return async (mode: SaveMode, call: () => Promise<Created | undefined>): Promise<boolean> => {
    let answer: Created | undefined;
    try {
      answer = await call();
    } catch {
      return false;
    }
    if (mode === 'add') {
      if (!answer?.id) return false;
      void message.success(t('messages.common.added'));
    } else {
      if (answer === undefined) return false;
      void message.success(t('messages.common.modified'));
    }
    await queryClient.invalidateQueries({ queryKey: msgQueryKeys.grid(resource) });
    return true;
  };
}
