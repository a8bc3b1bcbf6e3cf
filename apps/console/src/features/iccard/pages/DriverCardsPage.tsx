import { useText } from '../hooks/useText';
import { CardGrid } from '../components/CardGrid';
import { CardReaderProvider } from '../hooks/cardReader';

/** Driver cards (/iccard/driverCard): the cards of card type 0, with the same actions as card management. */
export function DriverCardsPage() {
  const { t } = useText();
  return (
    <CardReaderProvider>
      <CardGrid cardType={0} testId="driver-cards" title={t('iccard.card.driverTitle')} />
    </CardReaderProvider>
  );
}
