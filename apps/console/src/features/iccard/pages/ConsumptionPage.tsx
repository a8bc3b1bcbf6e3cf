import { RecordsGrid } from '../components/RecordsGrid';
import { useText } from '../hooks/useText';

/** Consumption details (/iccard/consumption): the charging sessions paid from IC-card accounts. */
export function ConsumptionPage() {
  const { t } = useText();
  return (
    <RecordsGrid
      list="consumptions"
      kinds={['consumption', 'consumption_amendment']}
      title={t('iccard.record.consumptionTitle')}
      testId="consumption-records"
    />
  );
}
