import { useQueryClient } from '@tanstack/react-query';
import type { PileCommandAction, PileCommandBodies } from '@voltdepot/shared-contracts';
import { App } from 'antd';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { codeLabel } from '../../../locales/codeLabel';
import { monitorApi, type MonitorApi } from '../api/monitorApi';
import { monitorQueryKeys } from '../queryKeys';

/** The status field of an OCPP confirmation (`{ status: 'Accepted' }`), if it has one. */
export function answerStatus(response: unknown): string | undefined {
  if (typeof response !== 'object' || response === null) return undefined;
  const status = (response as { status?: unknown }).status;
  return typeof status === 'string' ? status : undefined;
}

/**
 * Sends a command and shows what the pile answered; resolves true when it was carried out. Failures
 * (offline, no answer, refused) were shown by the request layer with the server's message.
 */
export function usePileCommand(api: MonitorApi = monitorApi) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  return useCallback(
    async <A extends PileCommandAction>(chargePointId: string, action: A, body: PileCommandBodies[A]) => {
      const result = await api.command(chargePointId, action, body).catch(() => undefined);
      if (!result) return false;
      const status = answerStatus(result.response);
      const accepted = status === undefined || ['Accepted', 'Unlocked', 'Scheduled'].includes(status);
      const text = status
        ? t('monitoring.command.result', { status: codeLabel(t, 'monitoring.answerStatus', status) })
        : t('monitoring.command.sent');
      void (accepted ? message.success(text) : message.warning(text));
      // The pushes will bring the consequences; a read now shows the pile as it stands meanwhile.
      void queryClient.invalidateQueries({ queryKey: monitorQueryKeys.all });
      return accepted;
    },
    [api, message, queryClient, t],
  );
}
