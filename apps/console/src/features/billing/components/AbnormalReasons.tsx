import { Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { abnormalReasonOf } from '../utils/abnormalReasons';

/**
 * A held order's reasons in the user's language: the spec's exception type and what was found (the
 * api's own sentence, with its figures, as a tooltip).
 */
export function AbnormalReasons({ reasons }: { reasons: readonly string[] }) {
  const { t } = useTranslation();
  const translate = t as unknown as (key: string) => string;
  if (!reasons.length) return <>-</>;
  return (
    <ul style={{ margin: 0, paddingLeft: 18 }}>
      {reasons.map((text) => {
        const reason = abnormalReasonOf(text);
        return (
          <li key={text}>
            {reason?.type && (
              <Tag color="red" data-testid="abnormal-type">
                {translate(`billing.reason.type.${reason.type}`)}
              </Tag>
            )}
            <Typography.Text title={text}>
              {reason ? translate(`billing.reason.${reason.detail}`) : text}
            </Typography.Text>
          </li>
        );
      })}
    </ul>
  );
}
