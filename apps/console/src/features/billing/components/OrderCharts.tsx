import type { ChargingOrderDetail } from '@voltdepot/console-api-client';
import { Card, Col, Empty, Row } from 'antd';
import ReactECharts from 'echarts-for-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../app/format/formatDateTime';

type Point = [number, number];

/** One chart's option; the axis labels and the tooltip's time read business time, not the browser's. */
export function lineOption(name: string, unit: string, color: string, data: Point[], step = false) {
  // Seconds on the axis when the whole session fits in a few minutes.
  const span = data.length ? data[data.length - 1][0] - data[0][0] : 0;
  const clock = (v: number) => formatDateTime(v).slice(11, span < 10 * 60_000 ? 19 : 16);
  return {
    animation: false,
    color: [color],
    grid: { left: 56, right: 16, top: 32, bottom: 32 },
    tooltip: {
      trigger: 'axis',
      valueFormatter: (v: number) => `${v} ${unit}`,
    },
    xAxis: {
      type: 'time',
      axisLabel: { hideOverlap: true, formatter: clock },
      // The tooltip's heading (echarts would format it in the browser's zone).
      axisPointer: { label: { formatter: ({ value }: { value: number }) => formatDateTime(value) } },
    },
    yAxis: { type: 'value', name: unit, nameTextStyle: { align: 'left' }, min: 0 },
    series: [
      {
        name,
        type: 'line',
        showSymbol: data.length < 40,
        step: step ? 'end' : undefined,
        areaStyle: { opacity: 0.12 },
        data,
      },
    ],
  };
}

/**
 * The session's power, energy and state of charge over time, from the meter samples settlement
 * stored: energy since the start at every reading, the average power over each interval between two
 * readings, and the SoC the vehicle reported.
 */
export function OrderCharts({ order }: { order: ChargingOrderDetail }) {
  const { t } = useTranslation();
  const charts = useMemo(
    () => [
      {
        key: 'power',
        title: t('billing.detail.powerChart'),
        points: order.powerSeries.map((p): Point => [Date.parse(p.at), Number((p.powerW / 1000).toFixed(3))]),
        option: (points: Point[]) => lineOption(t('billing.detail.power'), 'kW', '#fa8c16', points, true),
      },
      {
        key: 'energy',
        title: t('billing.detail.energyChart'),
        points: order.energySeries.map((p): Point => [
          Date.parse(p.at),
          Number((p.energyWh / 1000).toFixed(3)),
        ]),
        option: (points: Point[]) => lineOption(t('billing.detail.energy'), 'kW·h', '#1677ff', points),
      },
      {
        key: 'soc',
        title: t('billing.detail.socChart'),
        points: order.socSeries.map((p): Point => [Date.parse(p.at), p.soc]),
        option: (points: Point[]) => ({
          ...lineOption('SOC', '%', '#52c41a', points),
          yAxis: { type: 'value', name: '%', min: 0, max: 100 },
        }),
      },
    ],
    [order, t],
  );
  return (
    <Row gutter={[16, 16]}>
      {charts.map((chart) => (
        <Col key={chart.key} xs={24} xl={8}>
          <Card size="small" title={chart.title} data-testid={`order-chart-${chart.key}`}>
            {chart.points.length ? (
              <ReactECharts
                option={chart.option(chart.points)}
                style={{ height: 240 }}
                opts={{ renderer: 'svg' }}
                notMerge
              />
            ) : (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('billing.detail.noSamples')} />
            )}
          </Card>
        </Col>
      ))}
    </Row>
  );
}
