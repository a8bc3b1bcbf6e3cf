import {
  ABNORMAL_TYPE_LABELS,
  ABNORMAL_TYPES,
  ALARM_CATEGORIES,
  ALARM_CATEGORY_LABELS,
  ALARM_LEVEL_LABELS,
  ALARM_LEVELS,
  BMS_POWER_LABELS,
  BMS_POWERS,
  CARD_STATUS_LABELS,
  CARD_STATUSES,
  CARD_TYPE_LABELS,
  CARD_TYPES,
  CHARGER_TYPES,
  codeEntries,
  type CodeLabels,
  CONNECTOR_TYPES,
  CUSTOMER_TYPE_LABELS,
  CUSTOMER_TYPES,
  DEVICE_STATUS_LABELS,
  DEVICE_STATUSES,
  DICTIONARY_LABELS,
  GROUND_LOCK_STATUS_LABELS,
  GROUND_LOCK_STATUSES,
  LABEL_LANGUAGES,
  labelsIn,
  MANUFACTURER_TYPE_LABELS,
  MANUFACTURER_TYPES,
  NATIONAL_STANDARD_LABELS,
  NATIONAL_STANDARDS,
  ORDER_STATUS_CODES,
  ORDER_STATUS_LABELS,
  PARKING_SPACE_TYPE_LABELS,
  PARKING_SPACE_TYPES,
  PAY_STATUS_LABELS,
  PAY_STATUSES,
  PAYMENT_MODE_LABELS,
  PAYMENT_MODES,
  RESERVATION_STATUS_LABELS,
  RESERVATION_STATUSES,
  REVIEW_STATUS_LABELS,
  REVIEW_STATUSES,
  STAGE_TYPE_LABELS,
  START_TYPE_LABELS,
  START_TYPES,
  STATION_STATUS_LABELS,
  STATION_STATUSES,
  STATION_TYPE_LABELS,
  STATION_TYPES,
} from './code-labels';

/** The English label of each code, lower-cased, in the list's order. */
const english = <C extends string | number>(codes: readonly C[], labels: CodeLabels<C>) =>
  codes.map((code) => labels[code]['en-US'].toLowerCase());

describe('code labels', () => {
  it.each(Object.entries(DICTIONARY_LABELS))(
    '%s has a non-blank label in every language',
    (_name, labels) => {
      const blank = Object.entries(labels as CodeLabels<string>).flatMap(([code, label]) =>
        LABEL_LANGUAGES.filter((language) => !label[language]?.trim()).map(
          (language) => `${code} ${language}`,
        ),
      );
      expect(blank).toEqual([]);
    },
  );

  // The codes business-areas §9 fixes; the labels' order is the lists'.
  it.each([
    ['station types', STATION_TYPES, [0, 1, 100, 101, 102, 103, 255]],
    ['charger types', CHARGER_TYPES, [0, 1, 2, 3, 4, 5, 6, 7, 8, 255]],
    ['connector types', CONNECTOR_TYPES, [1, 2, 3, 4, 5, 255]],
    ['card types', CARD_TYPES, [0, 1, 2, 3]],
  ])('%s are the spec codes', (_name, codes, expected) => {
    expect([...codes]).toEqual(expected);
  });

  // The English words business-areas §4, §6 and §9 give for each code, in the spec's order.
  it.each<[string, string[], string[]]>([
    [
      'station type',
      english(STATION_TYPES, STATION_TYPE_LABELS),
      ['private', 'public', 'bus', 'sanitation', 'logistics', 'taxi', 'other'],
    ],
    [
      'station status',
      english(STATION_STATUSES, STATION_STATUS_LABELS),
      ['in use', 'under construction', 'maintenance', 'disabled'],
    ],
    [
      'device status',
      english(DEVICE_STATUSES, DEVICE_STATUS_LABELS),
      ['under construction', 'offline and disabled', 'long-term maintenance', 'normal after acceptance'],
    ],
    [
      'start type',
      english(START_TYPES, START_TYPE_LABELS),
      ['until full', 'by time', 'by percent', 'by amount', 'by energy'],
    ],
    [
      'national standard',
      english(NATIONAL_STANDARDS, NATIONAL_STANDARD_LABELS),
      ['2011 edition', '2015 edition', '2011 or 2015', 'other'],
    ],
    ['payment', english(PAYMENT_MODES, PAYMENT_MODE_LABELS), ['postpaid', 'prepaid']],
    ['BMS power', english(BMS_POWERS, BMS_POWER_LABELS), ['12v', '24v', 'adaptive', 'other']],
    [
      'ground lock',
      english(GROUND_LOCK_STATUSES, GROUND_LOCK_STATUS_LABELS),
      ['unknown', 'unlocked', 'locked'],
    ],
    [
      'parking space type',
      english(PARKING_SPACE_TYPES, PARKING_SPACE_TYPE_LABELS),
      ['bus', 'social vehicle'],
    ],
    [
      'production plant type',
      english(MANUFACTURER_TYPES, MANUFACTURER_TYPE_LABELS),
      ['charging pile', 'car manufacturer'],
    ],
    ['card type', english(CARD_TYPES, CARD_TYPE_LABELS), ['driver', 'consumer', 'management', 'charging']],
    [
      'card status',
      english(CARD_STATUSES, CARD_STATUS_LABELS),
      ['not made', 'normal', 'occupied', 'reported lost', 'cancelled', 'invalid'],
    ],
    ['alarm level', english(ALARM_LEVELS, ALARM_LEVEL_LABELS), ['none', 'level 1', 'level 2', 'level 3']],
    [
      'alarm category',
      english(ALARM_CATEGORIES, ALARM_CATEGORY_LABELS),
      ['general', 'energy storage', 'drive motor', 'engine', 'other'],
    ],
    [
      'charging period type',
      english(['valley', 'normal', 'peak', 'sharp', 'deepValley'], STAGE_TYPE_LABELS),
      ['valley', 'normal', 'peak', 'sharp', 'deep valley'],
    ],
    [
      'client type',
      english(CUSTOMER_TYPES, CUSTOMER_TYPE_LABELS),
      ['personal', 'group', 'group external card'],
    ],
    ['pay status', english(PAY_STATUSES, PAY_STATUS_LABELS), ['unpaid', 'paid', 'abnormal']],
    [
      'order status',
      english(ORDER_STATUS_CODES, ORDER_STATUS_LABELS),
      ['unpaid', 'paid', 'refund', 'abnormal', 'unsettled'],
    ],
    [
      'reservation',
      english(RESERVATION_STATUSES, RESERVATION_STATUS_LABELS),
      ['successful', 'completed', 'timed out', 'cancelled'],
    ],
    ['approval', english(REVIEW_STATUSES, REVIEW_STATUS_LABELS), ['pending', 'audited', 'rejected']],
    [
      'charging record exception type (§8)',
      english(ABNORMAL_TYPES, ABNORMAL_TYPE_LABELS),
      [
        'lost record',
        'repeated record',
        'electricity not matching meter',
        'meter data error',
        'start and end soc error',
        'vehicle match failure',
        'soc abnormal',
      ],
    ],
  ])('%s labels say what the spec says', (_name, actual, spec) => {
    expect(actual).toEqual(spec);
  });

  it('codeEntries keeps the list order and writes values as text', () => {
    expect(codeEntries([3, 0], PAY_STATUS_LABELS)).toEqual([
      { value: '3', label: { 'zh-CN': '异常', 'en-US': 'Abnormal' } },
      { value: '0', label: { 'zh-CN': '未支付', 'en-US': 'Unpaid' } },
    ]);
  });

  it('labelsIn gives one language by list and code', () => {
    expect(labelsIn('en-US', { pay_status: PAY_STATUS_LABELS })).toEqual({
      pay_status: { '0': 'Unpaid', '1': 'Paid', '3': 'Abnormal' },
    });
    expect(labelsIn('zh-CN', { pay_status: PAY_STATUS_LABELS }).pay_status['3']).toBe('异常');
  });
});
