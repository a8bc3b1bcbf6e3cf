import type { MonitorPileView } from '@voltdepot/shared-contracts';
import { Col, Row, type ColProps } from 'antd';
import { GunCard } from './GunCard';
import { GunCommands } from './PileCommands';

/** A pile's guns as cards with their commands; `col` is each card's share of the row. */
export function PileGunCards({ pile, now, col }: { pile: MonitorPileView; now: number; col: ColProps }) {
  return (
    <Row gutter={[12, 12]}>
      {pile.guns.map((gun) => (
        <Col key={gun.connectorId} {...col}>
          <GunCard
            chargePointId={pile.chargePointId}
            gun={gun}
            now={now}
            actions={<GunCommands pile={pile} gun={gun} />}
          />
        </Col>
      ))}
    </Row>
  );
}
