import { Tabs } from 'antd';
import { useText } from '../hooks/useText';
import { useHasPermission } from '../hooks/useHasPermission';
import { ActionRecordsGrid } from '../components/ActionRecordsGrid';
import { CardGrid } from '../components/CardGrid';
import { CardReaderProvider } from '../hooks/cardReader';
import { ICCARD_PERMISSIONS as P } from '../permissions';

/**
 * Card management (/iccard/cardManage): the CPU cards and the M1 cards, each with the card actions
 * done through the card reader on this PC, and the records of those actions.
 */
export function CardsPage() {
  const { t } = useText();
  const records = useHasPermission(P.recordQuery);
  return (
    <CardReaderProvider>
      <Tabs
        destroyOnHidden
        items={[
          {
            key: 'cpu',
            label: t('iccard.card.cpuTab'),
            children: <CardGrid chip="CPU" testId="cpu-cards" />,
          },
          { key: 'm1', label: t('iccard.card.m1Tab'), children: <CardGrid chip="M1" testId="m1-cards" /> },
          ...(records
            ? [{ key: 'records', label: t('iccard.card.recordsTab'), children: <ActionRecordsGrid /> }]
            : []),
        ]}
      />
    </CardReaderProvider>
  );
}
