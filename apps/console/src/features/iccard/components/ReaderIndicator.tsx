import { Badge, Tooltip } from 'antd';
import { useText } from '../hooks/useText';
import { useCardReader } from '../hooks/cardReader';

const BADGE = { connected: 'success', disconnected: 'error', checking: 'processing' } as const;

/** Whether the card reader agent on this PC answers, with its address. */
export function ReaderIndicator() {
  const { t } = useText();
  const { connection, url } = useCardReader();
  return (
    <Tooltip title={connection === 'connected' ? url : t('iccard.reader.notRunning', { url })}>
      <span data-testid="reader-indicator" data-connection={connection}>
        <Badge status={BADGE[connection]} text={t(`iccard.reader.${connection}`)} />
      </span>
    </Tooltip>
  );
}
