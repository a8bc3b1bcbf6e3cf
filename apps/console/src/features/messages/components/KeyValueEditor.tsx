import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Flex, Input, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { checkNewKey, duplicatedIndexes, type KeyValueError, type KeyValuePair } from './keyValue';

export type KeyValueEditorProps = {
  id?: string;
  value?: KeyValuePair[];
  onChange?: (pairs: KeyValuePair[]) => void;
  disabled?: boolean;
  'data-testid'?: string;
};

/**
 * The key-value editor of spec §2/§5: a pair is typed in the first row and kept only once added
 * ('key cannot be empty', 'key cannot be duplicated'); kept pairs can be edited and removed.
 */
export function KeyValueEditor({
  id,
  value = [],
  onChange,
  disabled,
  'data-testid': testId = 'key-value-editor',
}: KeyValueEditorProps) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<KeyValuePair>({ key: '', value: '' });
  const [error, setError] = useState<KeyValueError | null>(null);
  const duplicated = new Set(duplicatedIndexes(value));

  const add = () => {
    const problem = checkNewKey(value, draft.key);
    setError(problem);
    if (problem) return;
    onChange?.([...value, { key: draft.key.trim(), value: draft.value }]);
    setDraft({ key: '', value: '' });
  };

  const edit = (index: number, pair: KeyValuePair) =>
    onChange?.(value.map((current, i) => (i === index ? pair : current)));

  return (
    <div id={id} data-testid={testId}>
      {!disabled && (
        <>
          <Flex gap={8}>
            <Input
              data-testid="kv-new-key"
              placeholder={t('messages.keyValue.key')}
              value={draft.key}
              status={error ? 'error' : undefined}
              onChange={(e) => {
                setDraft({ ...draft, key: e.target.value });
                setError(null);
              }}
              onPressEnter={add}
            />
            <Input
              data-testid="kv-new-value"
              placeholder={t('messages.keyValue.value')}
              value={draft.value}
              onChange={(e) => setDraft({ ...draft, value: e.target.value })}
              onPressEnter={add}
            />
            <Button data-testid="kv-add" icon={<PlusOutlined />} onClick={add}>
              {t('messages.keyValue.add')}
            </Button>
          </Flex>
          {error ? (
            <Typography.Text type="danger" data-testid="kv-error">
              {t(`messages.keyValue.${error}`)}
            </Typography.Text>
          ) : (
            <Typography.Text type="secondary">{t('messages.keyValue.addHint')}</Typography.Text>
          )}
        </>
      )}
      {value.length === 0 && disabled && <Typography.Text type="secondary">-</Typography.Text>}
      {value.map((pair, index) => (
        <Flex key={index} gap={8} style={{ marginTop: 8 }} data-testid="kv-row">
          <Input
            aria-label={t('messages.keyValue.key')}
            value={pair.key}
            disabled={disabled}
            status={duplicated.has(index) ? 'error' : undefined}
            onChange={(e) => edit(index, { ...pair, key: e.target.value })}
          />
          <Input
            aria-label={t('messages.keyValue.value')}
            value={pair.value}
            disabled={disabled}
            onChange={(e) => edit(index, { ...pair, value: e.target.value })}
          />
          {!disabled && (
            <Button
              aria-label={t('messages.keyValue.remove')}
              icon={<DeleteOutlined />}
              onClick={() => onChange?.(value.filter((_, i) => i !== index))}
            />
          )}
        </Flex>
      ))}
    </div>
  );
}
