import { Col, Row, Select, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useDictionaries } from '../hooks/useDictionaries';
import { useRefOptions } from '../hooks/useRefOptions';
import { REQUIRED_LABEL_CATEGORIES } from '../rules/formRules';
import type { AssetRow } from '../types';

export const LABEL_CATEGORIES = ['payment', 'nationalStandard', 'chargingType', 'stationType'] as const;
const LABELS = { kind: 'label' } as const;

/** The chosen label ids grouped by their label's category. */
export function groupLabels(ids: readonly number[], labels: readonly AssetRow[]): Record<string, number[]> {
  const typeOf = new Map(labels.map((l) => [l.id, String(l['type'])]));
  const groups: Record<string, number[]> = {};
  for (const id of ids) {
    const type = typeOf.get(id);
    if (type) (groups[type] ??= []).push(id);
  }
  return groups;
}

/**
 * The station's labels, one select per category (payment, national standard, charging type, station
 * type); the first three need at least one each. The value is the flat list of label ids.
 */
export function LabelsInput({
  value = [],
  onChange,
}: {
  value?: number[];
  onChange?: (ids: number[]) => void;
}) {
  const { t } = useTranslation();
  const { rows, loading } = useRefOptions(LABELS, {});
  const { label } = useDictionaries(useMemo(() => [{ code: 'label_type' }], []));
  const grouped = useMemo(() => groupLabels(value, rows), [value, rows]);
  return (
    <Row gutter={16}>
      {LABEL_CATEGORIES.map((category) => {
        const options = rows
          .filter((row) => row['type'] === category)
          .map((row) => ({ value: row.id, label: String(row['name']) }));
        const required = (REQUIRED_LABEL_CATEGORIES as readonly string[]).includes(category);
        return (
          <Col span={12} key={category} style={{ marginBottom: 8 }}>
            <Typography.Text>
              {required && <span style={{ color: '#ff4d4f' }}>* </span>}
              {label('label_type', category)}
            </Typography.Text>
            <Select
              mode="multiple"
              style={{ width: '100%' }}
              loading={loading}
              data-testid={`labels-${category}`}
              placeholder={t('assets.common.select')}
              options={options}
              optionFilterProp="label"
              value={grouped[category] ?? []}
              onChange={(ids: number[]) => {
                const others = value.filter((id) => !options.some((o) => o.value === id));
                onChange?.([...others, ...ids]);
              }}
            />
          </Col>
        );
      })}
    </Row>
  );
}
