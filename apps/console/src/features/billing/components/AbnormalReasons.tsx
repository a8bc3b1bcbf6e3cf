import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { abnormalReasonKey } from '../utils/abnormalReasons';

/** A held order's reasons in the user's language (the api's own sentence as a tooltip). */
export function AbnormalReasons({ reasons }: { reasons: readonly string[] }) {
  const { t } = useTranslation();
  const translate = t as unknown as (key: string) => string;
  if (!reasons.length) return <>-</>;
  return (
    <ul style={{ margin: 0, paddingLeft: 18 }}>
      {reasons.map((text) => {
        const key = abnormalReasonKey(text);
        return (
          <li key={text}>
            <Typography.Text title={text}>{key ? translate(`billing.reason.${key}`) : text}</Typography.Text>
          </li>
        );
      })}
    </ul>
  );
}
