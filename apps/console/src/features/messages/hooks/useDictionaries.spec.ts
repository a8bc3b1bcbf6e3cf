// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { createI18n } from '../../../app/providers/i18n';
import { memoryStorage } from '../../../test/memoryStorage';
import { dictionaryOptions } from './useDictionaries';

const node = (code: string, items: [string, string][]) => ({
  id: 1,
  code,
  name: code,
  value: null,
  children: items.map(([value, name], i) => ({ id: 10 + i, code: value, name, value, children: [] })),
});

describe('dictionary options', () => {
  it("come from the dictionary, in its order, translated where the console knows the value, else the item's name", () => {
    const { t } = createI18n({ locale: 'en-US', storage: memoryStorage() });
    const options = dictionaryOptions(
      t,
      ['frequency', 'job_type'],
      [
        node('frequency', [
          ['WEEK', 'Weekly'],
          ['FIVE_MINUTES', 'Five minutes'],
        ]),
        node('job_type', [
          ['KAFKA', 'KAFKA'],
          ['MQTT', 'MQTT (added by an admin)'],
        ]),
      ],
    );
    expect(options.frequency).toEqual([
      { value: 'WEEK', label: 'Weekly' },
      { value: 'FIVE_MINUTES', label: 'Five minutes' },
    ]);
    expect(options.job_type).toEqual([
      { value: 'KAFKA', label: 'KAFKA' },
      { value: 'MQTT', label: 'MQTT (added by an admin)' },
    ]);
  });

  it('fall back to the contract values when the dictionary did not answer', () => {
    const { t } = createI18n({ locale: 'zh-CN', storage: memoryStorage() });
    const options = dictionaryOptions(t, ['alert_level'], undefined);
    expect(options.alert_level).toEqual([
      { value: 'PROMPT', label: '提示' },
      { value: 'MINOR', label: '次要' },
      { value: 'IMPORTANT', label: '重要' },
      { value: 'EMERGENCY', label: '紧急' },
    ]);
    expect(options.event_channel.map((o) => o.value)).toEqual(['0', '1', '2', '3', '4']);
  });
});
