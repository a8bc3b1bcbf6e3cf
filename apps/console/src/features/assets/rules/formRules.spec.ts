// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { createI18n } from '../../../app/providers/i18n';
import { memoryStorage } from '../../../test/memoryStorage';
import { fieldProblem, toBody, toFormValues, type AssetField } from '../components/fieldModel';
import { cardGrid } from '../grids/cardGrid';
import { hostFields } from '../grids/hostGrid';
import { companyGrid } from '../grids/organisationGrids';
import { operatorGrid, regionGrid, stopCodeGrid } from '../grids/referenceGrids';
import { stationFields } from '../grids/stationFields';
import { peakTimeGrid, transformerGrid } from '../grids/stationGrids';
import { vehicleGrid } from '../grids/vehicleGrid';
import {
  endAfterStartProblem,
  imageProblem,
  importFileProblem,
  labelsProblem,
  messageOf,
  selectionProblem,
  type Problem,
  type Translate,
} from './formRules';

const zh = createI18n({ locale: 'zh-CN', storage: memoryStorage() });
const en = createI18n({ locale: 'en-US', storage: memoryStorage() });
const tZh = zh.t.bind(zh) as unknown as Translate;
const tEn = en.t.bind(en) as unknown as Translate;

const field = (fields: AssetField[], name: string): AssetField => {
  const found = fields.find((f) => f.name === name);
  if (!found) throw new Error(`no field ${name}`);
  return found;
};

/** The message a field's rules give for a value, in both languages (null: accepted). */
function messages(f: AssetField, value: unknown): [string, string] | null {
  const problem = fieldProblem(f, value);
  if (!problem) return null;
  return [
    messageOf(tZh, problem, tZh(`assets.field.${f.label}`)),
    messageOf(tEn, problem, tEn(`assets.field.${f.label}`)),
  ];
}

describe('business-areas §5 in the forms: the message of every rule, zh-CN and en-US', () => {
  it.each([
    // Required fields (unless noted, each rule of §5 is "cannot be empty").
    ['company number', field(companyGrid.fields, 'number'), '', ['编号不能为空', 'Number cannot be empty']],
    [
      'company name (blank)',
      field(companyGrid.fields, 'name'),
      '   ',
      ['名称不能为空', 'Name cannot be empty'],
    ],
    [
      'box transformer station',
      field(transformerGrid.fields, 'stationId'),
      undefined,
      ['充电站不能为空', 'Station cannot be empty'],
    ],
    ['vehicle VIN', field(vehicleGrid.fields, 'vin'), null, ['车架号(VIN)不能为空', 'VIN cannot be empty']],
    [
      'vehicle plate',
      field(vehicleGrid.fields, 'plate'),
      '',
      ['车牌号不能为空', 'License plate cannot be empty'],
    ],
    [
      'vehicle manufacturer',
      field(vehicleGrid.fields, 'manufacturerId'),
      undefined,
      ['厂家不能为空', 'Manufacturer cannot be empty'],
    ],
    [
      'card physical number',
      field(cardGrid.fields, 'physicalNumber'),
      '',
      ['物理卡号不能为空', 'Physical number cannot be empty'],
    ],
    ['card type', field(cardGrid.fields, 'type'), undefined, ['卡类型不能为空', 'Card type cannot be empty']],
    [
      'card self number',
      field(cardGrid.fields, 'selfNumber'),
      '',
      ['自编号不能为空', 'Self number cannot be empty'],
    ],
    [
      'cardholder',
      field(cardGrid.fields, 'cardholder'),
      '',
      ['持卡人不能为空', 'Cardholder cannot be empty'],
    ],
    [
      'operator credit code',
      field(operatorGrid.fields, 'creditCode'),
      '',
      ['统一社会信用代码不能为空', 'Credit code cannot be empty'],
    ],
    [
      'operator fixed phone',
      field(operatorGrid.fields, 'fixedPhone'),
      '',
      ['固定电话不能为空', 'Fixed phone cannot be empty'],
    ],
    [
      'region area code',
      field(regionGrid.fields, 'areaCode'),
      '',
      ['区域代码不能为空', 'Area code cannot be empty'],
    ],
    [
      'stop-charging code protocol type',
      field(stopCodeGrid.fields, 'protocolType'),
      undefined,
      ['协议类型不能为空', 'Protocol type cannot be empty'],
    ],
    [
      'host OCPP password',
      field(hostFields, 'ocppPassword'),
      '',
      ['OCPP 密码不能为空', 'OCPP password cannot be empty'],
    ],
    [
      'station opening time',
      field(stationFields, 'openingTime'),
      undefined,
      ['开放时间不能为空', 'Opening time cannot be empty'],
    ],
    // Text length hints: 1 to 32, 1 to 16, 1 to 30 characters.
    [
      'company name of 33',
      field(companyGrid.fields, 'name'),
      'x'.repeat(33),
      ['名称长度为 1 到 32 个字符', 'Name must be 1 to 32 characters'],
    ],
    [
      'company number of 17',
      field(companyGrid.fields, 'number'),
      'x'.repeat(17),
      ['编号长度为 1 到 16 个字符', 'Number must be 1 to 16 characters'],
    ],
    [
      'cardholder of 31',
      field(cardGrid.fields, 'cardholder'),
      'x'.repeat(31),
      ['持卡人长度为 1 到 30 个字符', 'Cardholder must be 1 to 30 characters'],
    ],
    [
      'VIN of 5',
      field(vehicleGrid.fields, 'vin'),
      'LSVAB',
      ['车架号(VIN)必须为 17 个字符', 'VIN must be 17 characters'],
    ],
    [
      'OCPP password of 8',
      field(hostFields, 'ocppPassword'),
      'short123',
      ['OCPP 密码长度为 16 到 40 个字符', 'OCPP password must be 16 to 40 characters'],
    ],
    // Formats the api checks with the same words.
    [
      'VIN with I and O',
      field(vehicleGrid.fields, 'vin'),
      'LSVAB1234IO123456',
      ['车架号必须为 17 位字母或数字（不含 I、O、Q）', 'VIN must be 17 letters or digits (no I, O or Q)'],
    ],
    [
      'credit code',
      field(operatorGrid.fields, 'creditCode'),
      'abcdefghijklmnopqr',
      ['统一社会信用代码必须为 18 位数字或大写字母', 'Credit code must be 18 digits or capital letters'],
    ],
    [
      'area code',
      field(regionGrid.fields, 'areaCode'),
      '35x',
      ['区域代码必须为 6 到 12 位数字', 'Area code must be 6 to 12 digits'],
    ],
    [
      'charge point id',
      field(hostFields, 'chargePointId'),
      '-bad id',
      [
        '充电桩标识须以字母或数字开头，只能包含字母、数字和 . _ : -',
        'Charge point id must start with a letter or digit and contain only letters, digits and . _ : -',
      ],
    ],
    [
      'physical number',
      field(cardGrid.fields, 'physicalNumber'),
      'A B',
      ['物理卡号只能包含字母和数字', 'Physical number may contain only letters and digits'],
    ],
    [
      'fixed phone',
      field(operatorGrid.fields, 'fixedPhone'),
      'call me',
      ['固定电话只能包含数字、空格、+ 和 -', 'Fixed phone may contain only digits, spaces, + and -'],
    ],
    [
      'peak end time 24:30',
      field(peakTimeGrid.fields, 'endTime'),
      '24:30',
      ['结束时间必须为 HH:mm 格式的时间', 'End time must be a time of day HH:mm'],
    ],
    // Numbers.
    [
      'gun count 17',
      field(hostFields, 'gunCount'),
      17,
      ['接口数(枪数)应在 1 到 16 之间', 'Number of guns must be between 1 and 16'],
    ],
    [
      'gun count 1.5',
      field(hostFields, 'gunCount'),
      1.5,
      ['接口数(枪数)必须为整数', 'Number of guns must be a whole number'],
    ],
    [
      'latitude 91',
      field(stationFields, 'latitude'),
      91,
      ['纬度应在 -90 到 90 之间', 'Latitude must be between -90 and 90'],
    ],
    [
      'capped amount of 0.001 yuan',
      field(stationFields, 'cappedAmountFen'),
      0.001,
      ['封顶金额(元)最多 2 位小数', 'Capped amount (yuan) may have at most 2 decimals'],
    ],
  ] as const)('%s', (_name, f, value, expected) => {
    expect(messages(f, value)).toEqual(expected);
  });

  it.each([
    ['company name', field(companyGrid.fields, 'name'), 'Fuzhou Bus Co.'],
    ['VIN in lower case', field(vehicleGrid.fields, 'vin'), 'lsvab1234kl123456'],
    ['end of day', field(peakTimeGrid.fields, 'endTime'), '24:00'],
    ['host charge point id', field(hostFields, 'chargePointId'), 'CP-1'],
    ['optional blank', field(vehicleGrid.fields, 'selfNumber'), ''],
  ])('%s is accepted', (_name, f, value) => {
    expect(messages(f, value)).toBeNull();
  });

  const other: [string, Problem | null, [string, string]][] = [
    [
      'a GIF as station image',
      imageProblem({ name: 'a.gif', type: 'image/gif', size: 10 }),
      ['站点图片只能是 JPG 或 PNG 格式', 'Station image must be JPG or PNG'],
    ],
    [
      'a PNG named .txt',
      imageProblem({ name: 'a.txt', type: 'image/png', size: 10 }),
      ['站点图片只能是 JPG 或 PNG 格式', 'Station image must be JPG or PNG'],
    ],
    [
      'a 2MB + 1 byte JPG',
      imageProblem({ name: 'a.jpg', type: 'image/jpeg', size: 2 * 1024 * 1024 + 1 }),
      ['站点图片不能超过 2MB', 'Station image must be at most 2MB'],
    ],
    [
      'labels without a national standard',
      labelsProblem({ payment: [1], chargingType: [3] }),
      ['每个类别至少选择一个标签', 'At least one label per category'],
    ],
    [
      'a batch without hosts',
      selectionProblem([]),
      ['至少选择一个主机', 'At least one host must be selected'],
    ],
    [
      'an import without a file',
      importFileProblem(undefined),
      ['请先选择文件', 'A file must be chosen first'],
    ],
    [
      'an import of a .csv',
      importFileProblem({ name: 'vehicles.csv' }),
      ['只能导入 xlsx 或 xls 文件', 'Only xlsx or xls files can be imported'],
    ],
    [
      'a period ending before it starts',
      endAfterStartProblem('10:00', '09:00'),
      ['结束时间必须晚于开始时间', 'End time must be later than start time'],
    ],
  ];
  it.each(other)('%s', (_name, problem, expected) => {
    expect(problem).not.toBeNull();
    expect([messageOf(tZh, problem!), messageOf(tEn, problem!)]).toEqual(expected);
  });

  it.each([
    ['a 2MB PNG', imageProblem({ name: 'a.PNG', type: 'image/png', size: 2 * 1024 * 1024 })],
    ['a JPEG', imageProblem({ name: 'a.jpeg', type: 'image/jpeg', size: 1000 })],
    [
      'one label of each required category',
      labelsProblem({ payment: [1], nationalStandard: [2], chargingType: [3] }),
    ],
    ['one host', selectionProblem([7])],
    ['an .xls file', importFileProblem({ name: 'old.XLS' })],
    ['a period up to 24:00', endAfterStartProblem('22:00', '24:00')],
  ])('%s passes', (_name, problem) => {
    expect(problem).toBeNull();
  });
});

describe('form values and request bodies', () => {
  it('money is yuan in the form and integer fen in the body; blanks are null; times HH:mm', () => {
    const row = {
      id: 1,
      cappedAmountFen: 5000,
      occupationUnitPriceFen: 150,
      openingTime: '06:30',
      description: null,
    };
    const values = toFormValues(stationFields, row);
    expect(values).toMatchObject({ cappedAmountFen: 50, occupationUnitPriceFen: 1.5, openingTime: '06:30' });
    expect(values).not.toHaveProperty('description');
    const body = toBody(stationFields, { ...values, occupationUnitPriceFen: 0.1 + 0.2, description: '  ' });
    expect(body).toMatchObject({
      cappedAmountFen: 5000,
      occupationUnitPriceFen: 30,
      openingTime: '06:30',
      description: null,
    });
    // PUT takes the whole record: every form field is in the body.
    expect(Object.keys(body).sort()).toEqual(
      stationFields
        .filter((f) => f.form !== false)
        .map((f) => f.name)
        .sort(),
    );
  });

  it('numeric dictionaries send numbers, choices their stored value, passwords only when typed', () => {
    const body = toBody(hostFields, { deviceStatus: '50', type: 1, ocppPassword: '' });
    expect(body['deviceStatus']).toBe(50);
    expect(body).not.toHaveProperty('ocppPassword');
    expect(body).not.toHaveProperty('gatewayState');
    expect(toBody(stopCodeGrid.fields, { normal: 'false' })['normal']).toBe(false);
    expect(toFormValues(stopCodeGrid.fields, { id: 1, normal: true })['normal']).toBe('true');
  });
});
