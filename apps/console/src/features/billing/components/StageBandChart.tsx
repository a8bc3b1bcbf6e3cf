import type { StageTypeCode } from '@voltdepot/shared-contracts';
import ReactECharts from 'echarts-for-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { bandsOfDay, MINUTES_PER_DAY, type StageDraft } from '../utils/pricePlanRules';
import { BAND_COLORS } from './bandColors';

const hours = (minute: number) => Number((minute / 60).toFixed(4));
const price = (value: string | undefined) => {
  const n = Number(value);
  return Number.isFinite(n) ? n : 0;
};

/**
 * The plan's 24 hours: each stage as a coloured band (its type), with the electricity price and the
 * service fee per kWh as steps over the day. Uncovered time shows as a gap.
 */
export function StageBandChart({
  stages,
  height = 220,
  label,
}: {
  stages: readonly StageDraft[];
  height?: number;
  label: (type: StageTypeCode) => string;
}) {
  const { t } = useTranslation();
  const option = useMemo(() => {
    const pieces = bandsOfDay(stages);
    const steps = (pick: (s: StageDraft) => number) =>
      pieces.flatMap((p) => [
        [hours(p.from), pick(p.stage)],
        [hours(p.to), pick(p.stage)],
        [hours(p.to), null],
      ]);
    return {
      animation: false,
      grid: { left: 48, right: 16, top: 36, bottom: 28 },
      legend: { top: 0, data: [t('billing.pricePlan.electricityPrice'), t('billing.pricePlan.serviceFee')] },
      tooltip: { trigger: 'axis' },
      xAxis: {
        type: 'value',
        min: 0,
        max: MINUTES_PER_DAY / 60,
        interval: 2,
        axisLabel: { formatter: (v: number) => `${String(v).padStart(2, '0')}:00` },
      },
      yAxis: { type: 'value', name: t('billing.unit.yuanPerKwh'), nameTextStyle: { align: 'left' } },
      series: [
        {
          name: t('billing.pricePlan.electricityPrice'),
          type: 'line',
          showSymbol: false,
          connectNulls: false,
          lineStyle: { width: 2 },
          data: steps((s) => price(s.electricityPrice)),
          markArea: {
            silent: true,
            data: pieces.map((p) => [
              {
                xAxis: hours(p.from),
                name: p.stage.stageType ? label(p.stage.stageType) : '',
                itemStyle: {
                  color: p.stage.stageType ? BAND_COLORS[p.stage.stageType] : '#d9d9d9',
                  opacity: 0.18,
                },
                label: { position: 'insideTop', color: '#555' },
              },
              { xAxis: hours(p.to) },
            ]),
          },
        },
        {
          name: t('billing.pricePlan.serviceFee'),
          type: 'line',
          showSymbol: false,
          connectNulls: false,
          lineStyle: { width: 2, type: 'dashed' },
          data: steps((s) => price(s.serviceFee)),
        },
      ],
    };
  }, [stages, t, label]);
  return (
    <div data-testid="stage-band-chart">
      <ReactECharts option={option} style={{ height }} opts={{ renderer: 'svg' }} notMerge />
    </div>
  );
}
