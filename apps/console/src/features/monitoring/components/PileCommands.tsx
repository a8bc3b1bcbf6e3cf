import {
  PoweroffOutlined,
  ReloadOutlined,
  StopOutlined,
  ThunderboltOutlined,
  UnlockOutlined,
} from '@ant-design/icons';
import { ModalForm, ProFormRadio, ProFormSelect, ProFormText } from '@ant-design/pro-components';
import type { MonitorGunView, MonitorPileView } from '@voltdepot/shared-contracts';
import { GuardedButton, Permission } from '@voltdepot/console-ui';
import { Popconfirm, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { usePileCommand } from '../hooks/usePileCommand';
import { MONITORING_PERMISSIONS } from '../permissions';

const gunLabel = (gun: MonitorGunView) => gun.name ?? `#${gun.connectorId}`;

/** Pile-wide commands: remote start, reset, availability (for holders of pile:command). */
export function PileCommands({ pile }: { pile: MonitorPileView }) {
  const { t } = useTranslation();
  const send = usePileCommand();
  const gunOptions = pile.guns.map((g) => ({ value: g.connectorId, label: gunLabel(g) }));
  const idleGuns = pile.guns.filter((g) => g.status === 'idle' || g.status === 'connected');
  return (
    <Permission code={MONITORING_PERMISSIONS.command}>
      <Space size={4} wrap>
        <ModalForm<{ connectorId: number; idTag: string }>
          title={`${t('monitoring.command.remoteStart')} · ${pile.name ?? pile.chargePointId}`}
          width={420}
          modalProps={{ destroyOnHidden: true }}
          initialValues={{ connectorId: idleGuns[0]?.connectorId }}
          trigger={
            <GuardedButton
              size="small"
              icon={<ThunderboltOutlined />}
              disabled={!pile.online}
              data-testid="cmd-start"
            >
              {t('monitoring.command.remoteStart')}
            </GuardedButton>
          }
          onFinish={(values) => send(pile.chargePointId, 'RemoteStartTransaction', values)}
        >
          <ProFormSelect
            name="connectorId"
            label={t('monitoring.command.gun')}
            options={gunOptions}
            rules={[{ required: true, message: t('monitoring.command.gunRequired') }]}
          />
          <ProFormText
            name="idTag"
            label={t('monitoring.command.idTag')}
            fieldProps={{ maxLength: 20 }}
            rules={[{ required: true, whitespace: true, message: t('monitoring.command.idTagRequired') }]}
          />
        </ModalForm>
        <ModalForm<{ type: 'Soft' | 'Hard' }>
          title={`${t('monitoring.command.reset')} · ${pile.name ?? pile.chargePointId}`}
          width={420}
          modalProps={{ destroyOnHidden: true }}
          initialValues={{ type: 'Soft' }}
          trigger={
            <GuardedButton
              size="small"
              icon={<ReloadOutlined />}
              disabled={!pile.online}
              data-testid="cmd-reset"
            >
              {t('monitoring.command.reset')}
            </GuardedButton>
          }
          onFinish={(values) => send(pile.chargePointId, 'Reset', values)}
        >
          <p>{t('monitoring.command.resetConfirm', { name: pile.name ?? pile.chargePointId })}</p>
          <ProFormRadio.Group
            name="type"
            label={t('monitoring.command.resetType')}
            options={[
              { value: 'Soft', label: t('monitoring.command.softReset') },
              { value: 'Hard', label: t('monitoring.command.hardReset') },
            ]}
          />
        </ModalForm>
        <ModalForm<{ connectorId: number; type: 'Operative' | 'Inoperative' }>
          title={`${t('monitoring.command.availability')} · ${pile.name ?? pile.chargePointId}`}
          width={420}
          modalProps={{ destroyOnHidden: true }}
          initialValues={{ connectorId: 0, type: 'Inoperative' }}
          trigger={
            <GuardedButton
              size="small"
              icon={<PoweroffOutlined />}
              disabled={!pile.online}
              data-testid="cmd-availability"
            >
              {t('monitoring.command.availability')}
            </GuardedButton>
          }
          onFinish={(values) => send(pile.chargePointId, 'ChangeAvailability', values)}
        >
          <ProFormSelect
            name="connectorId"
            label={t('monitoring.command.gun')}
            options={[{ value: 0, label: t('monitoring.command.wholePile') }, ...gunOptions]}
            rules={[{ required: true, message: t('monitoring.command.gunRequired') }]}
          />
          <ProFormRadio.Group
            name="type"
            label={t('monitoring.command.availabilityType')}
            options={[
              { value: 'Operative', label: t('monitoring.command.operative') },
              { value: 'Inoperative', label: t('monitoring.command.inoperative') },
            ]}
          />
        </ModalForm>
      </Space>
    </Permission>
  );
}

/** A gun's own commands: stop its session, unlock its connector. */
export function GunCommands({ pile, gun }: { pile: MonitorPileView; gun: MonitorGunView }) {
  const { t } = useTranslation();
  const send = usePileCommand();
  const transactionId = gun.transactionId;
  return (
    <Permission code={MONITORING_PERMISSIONS.command}>
      <Space size={4}>
        <Popconfirm
          title={t('monitoring.command.stopConfirm', { gun: gunLabel(gun) })}
          disabled={transactionId === null || !pile.online}
          onConfirm={() =>
            transactionId === null
              ? undefined
              : send(pile.chargePointId, 'RemoteStopTransaction', { transactionId })
          }
        >
          <GuardedButton
            size="small"
            type="link"
            icon={<StopOutlined />}
            disabled={transactionId === null || !pile.online}
            data-testid="cmd-stop"
          >
            {t('monitoring.command.remoteStop')}
          </GuardedButton>
        </Popconfirm>
        <Popconfirm
          title={t('monitoring.command.unlockConfirm', { gun: gunLabel(gun) })}
          disabled={!pile.online}
          onConfirm={() => send(pile.chargePointId, 'UnlockConnector', { connectorId: gun.connectorId })}
        >
          <GuardedButton
            size="small"
            type="link"
            icon={<UnlockOutlined />}
            disabled={!pile.online}
            data-testid="cmd-unlock"
          >
            {t('monitoring.command.unlock')}
          </GuardedButton>
        </Popconfirm>
      </Space>
    </Permission>
  );
}
