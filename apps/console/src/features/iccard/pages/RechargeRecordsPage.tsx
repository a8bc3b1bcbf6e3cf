import { RecordsGrid } from '../components/RecordsGrid';
import { useText } from '../hooks/useText';

/** Recharge and refund records (/iccard/recharge). */
export function RechargeRecordsPage() {
  const { t } = useText();
  return (
    <RecordsGrid
      list="records"
      kinds={['recharge', 'refund']}
      title={t('iccard.record.rechargeTitle')}
      testId="recharge-records"
    />
  );
}
