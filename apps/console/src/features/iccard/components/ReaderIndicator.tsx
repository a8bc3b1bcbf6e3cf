import { Badge, Button, Space, Tooltip } from 'antd';
import { useEffect } from 'react';
import { useText } from '../hooks/useText';
import { useCardReader } from '../hooks/cardReader';

const BADGE = {
  unknown: 'default',
  connected: 'success',
  disconnected: 'error',
  checking: 'processing',
} as const;

/**
 * Whether the card reader agent on this PC answers, with its address and a check button. `checkOnShow`:
 * ask at once (a card action's dialog, where the reader is about to be used).
 */
export function ReaderIndicator({ checkOnShow = false }: { checkOnShow?: boolean }) {
  const { t } = useText();
  const { connection, url, check } = useCardReader();
  useEffect(() => {
    if (checkOnShow) check();
  }, [checkOnShow, check]);
  return (
    <Space size={4}>
      <Tooltip title={connection === 'connected' ? url : t('iccard.reader.notRunning', { url })}>
        <span data-testid="reader-indicator" data-connection={connection}>
          <Badge status={BADGE[connection]} text={t(`iccard.reader.${connection}`)} />
        </span>
      </Tooltip>
      <Button
        type="link"
        size="small"
        onClick={check}
        disabled={connection === 'checking'}
        data-testid="reader-check"
      >
        {t('iccard.reader.check')}
      </Button>
    </Space>
  );
}
