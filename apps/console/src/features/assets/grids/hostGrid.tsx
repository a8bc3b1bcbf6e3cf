import { CheckCircleOutlined, CloudUploadOutlined, KeyOutlined, StopOutlined } from '@ant-design/icons';
import { GuardedButton, Permission } from '@voltdepot/console-ui';
import { App, Button, Typography } from 'antd';
import { useNavigate } from 'react-router-dom';
import type { ProFormInstance } from '@ant-design/pro-components';
import { useTranslation } from 'react-i18next';
import { assetApi } from '../api/assetApi';
import type { GridConfig, GridContext } from '../components/AssetGridPage';
import type { AssetField } from '../components/fieldModel';
import { BASIC_MENUS, HOST_BUTTONS } from '../permissions';
import { messageOf, PATTERNS, selectionProblem } from '../rules/formRules';
import { stationField } from './commonFields';

/** A fresh OCPP password: 24 printable characters from the browser's random source. */
export function generatePassword(length = 24): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789-_.!';
  const bytes = new Uint8Array(length);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
}

export const hostFields: AssetField[] = [
  stationField(),
  { name: 'name', label: 'name', kind: 'text', required: true, text: { max: 32 }, search: true },
  { name: 'number', label: 'number', kind: 'text', required: true, text: { max: 16 }, search: true },
  {
    name: 'chargePointId',
    label: 'chargePointId',
    kind: 'text',
    required: true,
    text: { max: 48, pattern: PATTERNS.chargePointId },
    search: true,
  },
  {
    name: 'ocppPassword',
    label: 'ocppPassword',
    kind: 'password',
    required: true,
    text: { min: 16, max: 40, pattern: PATTERNS.ocppPassword },
    grid: false,
  },
  {
    name: 'deviceStatus',
    label: 'deviceStatus',
    kind: 'dict',
    dict: 'device_status',
    numeric: true,
    required: true,
    initial: 1,
    search: true,
  },
  {
    name: 'gatewayState',
    label: 'gatewayState',
    kind: 'choice',
    form: false,
    choices: [
      { value: 'active', label: 'host.gateway.active' },
      { value: 'pending', label: 'host.gateway.pending' },
      { value: 'disabled', label: 'host.gateway.disabled' },
    ],
  },
  { name: 'type', label: 'hostType', kind: 'dict', dict: 'charger_type', numeric: true, required: true },
  {
    name: 'chargingType',
    label: 'chargingType',
    kind: 'dict',
    dict: 'charger_type',
    numeric: true,
    grid: false,
  },
  { name: 'maxPowerW', label: 'maxPowerW', kind: 'int', required: true, min: 1, max: 10_000_000 },
  { name: 'ratedPowerW', label: 'ratedPowerW', kind: 'int', required: true, min: 1, max: 10_000_000 },
  { name: 'voltageV', label: 'voltageV', kind: 'int', min: 0, max: 2000, grid: false },
  { name: 'currentA', label: 'currentA', kind: 'int', min: 0, max: 2000, grid: false },
  { name: 'gunCount', label: 'gunCount', kind: 'int', required: true, min: 1, max: 16, initial: 2 },
  {
    name: 'manufacturerId',
    label: 'manufacturer',
    kind: 'ref',
    view: 'manufacturerName',
    ref: { kind: 'manufacturer', params: () => ({ type: 'pile' }) },
  },
  { name: 'startMode', label: 'startMode', kind: 'dict', dict: 'start_type', numeric: true, grid: false },
  {
    name: 'protocolVersion',
    label: 'protocolVersion',
    kind: 'text',
    required: true,
    text: { max: 16 },
    initial: 'ocpp1.6',
  },
  {
    name: 'nationalStandard',
    label: 'nationalStandard',
    kind: 'dict',
    dict: 'national_standard',
    numeric: true,
    grid: false,
  },
  { name: 'model', label: 'model', kind: 'text', text: { max: 32 }, grid: false },
  { name: 'hostIp', label: 'hostIp', kind: 'text', text: { max: 45 }, grid: false },
  {
    name: 'coordinateX',
    label: 'coordinateX',
    kind: 'decimal',
    min: -1_000_000,
    max: 1_000_000,
    grid: false,
  },
  {
    name: 'coordinateY',
    label: 'coordinateY',
    kind: 'decimal',
    min: -1_000_000,
    max: 1_000_000,
    grid: false,
  },
  { name: 'simNumber', label: 'simNumber', kind: 'text', text: { max: 32 }, grid: false },
  { name: 'productionDate', label: 'productionDate', kind: 'date', grid: false },
  {
    name: 'paymentMode',
    label: 'paymentMode',
    kind: 'dict',
    dict: 'payment_mode',
    numeric: true,
    grid: false,
  },
  { name: 'supportsReservation', label: 'supportsReservation', kind: 'bool', grid: false },
  { name: 'externalId', label: 'externalId', kind: 'text', text: { max: 64 }, grid: false },
  {
    name: 'transformerId',
    label: 'transformer',
    kind: 'ref',
    view: 'transformerName',
    grid: false,
    ref: {
      kind: 'transformer',
      dependsOn: ['stationId'],
      params: (v) => (v['stationId'] ? { stationId: v['stationId'] as number } : null),
    },
  },
  { name: 'deliveredAt', label: 'deliveredAt', kind: 'datetime', form: false },
];

/** Batch enable, disable and delivery: at least one host must be selected (business-areas §5). */
function BatchButton({ ctx, action }: { ctx: GridContext; action: 'enable' | 'disable' | 'delivery' }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const icons = {
    enable: <CheckCircleOutlined />,
    disable: <StopOutlined />,
    delivery: <CloudUploadOutlined />,
  };
  return (
    <GuardedButton
      icon={icons[action]}
      data-testid={`host-batch-${action}`}
      onClick={() => {
        const ids = ctx.selected.map((row) => row.id);
        const problem = selectionProblem(ids);
        if (problem) {
          void message.warning(messageOf(ctx.t, problem));
          return;
        }
        modal.confirm({
          title: t(`assets.host.${action}Confirm`, { count: ids.length }),
          okText: t('common.ok'),
          cancelText: t('common.cancel'),
          onOk: async () => {
            try {
              await assetApi.pileBatch(action, ids);
            } catch {
              return;
            }
            void message.success(
              t(action === 'delivery' ? 'assets.host.deliveryDone' : 'assets.host.batchDone'),
            );
            ctx.clearSelection();
            ctx.reload();
          },
        });
      }}
    >
      {t(`assets.host.${action}`)}
    </GuardedButton>
  );
}

function GunsLink({ id }: { id: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Typography.Link onClick={() => navigate(`/basic/gun?pileId=${id}`)}>
      {t('assets.host.guns')}
    </Typography.Link>
  );
}

function GeneratePassword({ form }: { form: () => ProFormInstance | undefined }) {
  const { t } = useTranslation();
  return (
    <Button
      icon={<KeyOutlined />}
      data-testid="host-generate-password"
      onClick={() => form()?.setFieldsValue({ ocppPassword: generatePassword() })}
      style={{ marginBottom: 16 }}
    >
      {t('assets.host.generatePassword')}
    </Button>
  );
}

/** Charging hosts (piles): the gateway's registry; deleting one deletes its guns (§8 confirmation). */
export const hostGrid: GridConfig = {
  kind: 'pile',
  menu: BASIC_MENUS.host,
  title: 'host',
  selectable: true,
  importable: true,
  scrollX: 1700,
  deleteConfirm: 'host.deleteConfirm',
  fields: hostFields,
  toolbar: (ctx) => [
    <Permission key="enable" code={HOST_BUTTONS.enable}>
      <BatchButton ctx={ctx} action="enable" />
    </Permission>,
    <Permission key="disable" code={HOST_BUTTONS.enable}>
      <BatchButton ctx={ctx} action="disable" />
    </Permission>,
    <Permission key="delivery" code={HOST_BUTTONS.delivery}>
      <BatchButton ctx={ctx} action="delivery" />
    </Permission>,
  ],
  rowActions: (row) => [<GunsLink key="guns" id={row.id} />],
  formExtra: ({ form }) => <GeneratePassword form={form} />,
};
