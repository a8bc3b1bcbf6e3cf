import { ABNORMAL_REASON_TYPES, type AbnormalReasonCode } from '@voltdepot/shared-contracts';
import { Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * A held or flagged order's reasons (codes) in the user's language: the spec's exception type of each
 * (none for a reason that is no data exception, such as no price plan) and what was found.
 */
export function AbnormalReasons({ reasons }: { reasons: readonly AbnormalReasonCode[] }) {
  const { t } = useTranslation();
  if (!reasons.length) return <>-</>;
  return (
    <ul style={{ margin: 0, paddingLeft: 18 }}>
      {reasons.map((code) => {
        const type = ABNORMAL_REASON_TYPES[code];
        return (
          <li key={code}>
            {type && (
              <Tag color="red" data-testid="abnormal-type">
                {t(`billing.reason.type.${type}`)}
              </Tag>
            )}
            <Typography.Text data-testid="abnormal-reason">
              {t(`billing.reason.code.${code}`)}
            </Typography.Text>
          </li>
        );
      })}
    </ul>
  );
}
