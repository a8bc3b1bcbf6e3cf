/**
 * The demo depot's remaining basic data, so no basic-data grid (and none of the dropdowns fed by one)
 * is empty on a fresh install: a second charging operator, the bus bays (one per gun), cameras, the
 * maintenance crew, the peak charging times of the tariff, the OCPP 1.6 fault and stop codes the
 * simulated piles send, and each depot's site plan (the station monitor shows it over the map). Idempotent by natural keys like the rest of the seed; existing rows are kept.
 */
import type { EntityManager } from 'typeorm';
import { ensure } from './seed-row';
import { depotSitePlanPng } from './site-plan';

/** What the seed made of one depot: its station, its code (A, B) and its guns in pile order. */
export type DemoStationRows = { id: number; code: string; shortName: string; gunIds: number[] };

/**
 * OCPP 1.6 ChargePointErrorCode values (the ones that fit the grid's 16-character code, among them every
 * fault the demo's piles report: DEMO_FAULTS): name, level (1 most severe), description.
 */
export const OCPP_FAULTS: [code: string, name: string, level: number, description: string][] = [
  ['GroundFailure', '接地故障', 1, '漏电保护动作，需断电检查'],
  ['HighTemperature', '温度过高', 2, '枪头或模块温度超限，降功率或停机'],
  ['InternalError', '内部故障', 1, '充电模块或控制板故障'],
  ['OverVoltage', '过压', 2, '输入或输出电压过高'],
  ['UnderVoltage', '欠压', 3, '输入电压过低'],
  ['ReaderFailure', '读卡器故障', 3, '刷卡器无响应'],
  ['ResetFailure', '复位失败', 3, '远程复位后未能恢复'],
  ['WeakSignal', '信号弱', 3, '4G 信号弱，通信可能中断'],
];

/** The faults the demo's piles report now and then. */
export const DEMO_FAULTS = ['GroundFailure', 'HighTemperature', 'OverVoltage', 'InternalError'];

/** OCPP 1.6 StopTransaction reasons: name, whether the stop is normal (the stop notice's type). */
const OCPP_STOP_REASONS: [code: string, name: string, normal: boolean][] = [
  ['Local', '本地停止（充满）', true],
  ['Remote', '远程停止', true],
  ['EVDisconnected', '车辆断开', true],
  ['EmergencyStop', '急停', false],
  ['PowerLoss', '掉电', false],
  ['Reboot', '重启', false],
  ['DeAuthorized', '卡授权失效', false],
  ['Other', '其他原因', false],
];

/** The tariff's periods (the demo's five-band price plan), as the peak charging time grid lists them. */
const PEAK_TIMES: [periodType: string, start: string, end: string][] = [
  ['deepValley', '00:00', '06:00'],
  ['valley', '06:00', '08:00'],
  ['normal', '08:00', '10:00'],
  ['peak', '10:00', '17:00'],
  ['sharp', '17:00', '19:00'],
  ['normal', '19:00', '23:00'],
  ['valley', '23:00', '24:00'],
];

const CREW: [number: string, name: string, phone: string, depot: string][] = [
  ['MT-HF-001', '张伟', '13905510101', 'A'],
  ['MT-HF-002', '刘洋', '13905510102', 'A'],
  ['MT-HF-003', '赵磊', '13905510103', 'B'],
];

export async function seedDemoBasicData(
  m: EntityManager,
  organizationId: number,
  stations: readonly DemoStationRows[],
): Promise<void> {
  // A neighbouring operator, so the operator dropdown offers a choice.
  await ensure(m, 'charging_operator', { number: 'OP-AH-02' }, () => ({
    name: '安徽绿源新能源科技有限公司',
    contact_name: '周敏',
    mobile_phone: '13805510222',
    fixed_phone: '0551-63330222',
    registered_address: '安徽省合肥市蜀山区黄山路 459 号',
    credit_code: '91340104MA2TQ7L03R',
    remark: '社会公共充电站运营商',
  }));
  for (const [code, name, level, description] of OCPP_FAULTS) {
    await ensure(m, 'alarm_code', { protocol_type: 'ocpp1.6', code }, () => ({
      name,
      level,
      category: 'general',
      description,
    }));
  }
  for (const [code, name, normal] of OCPP_STOP_REASONS) {
    await ensure(m, 'stop_code', { protocol_type: 'ocpp1.6', code }, () => ({ name, normal }));
  }
  for (const [periodType, start, end] of PEAK_TIMES) {
    await ensure(
      m,
      'peak_charging_time',
      { organization_id: organizationId, period_type: periodType, start_time: start },
      () => ({ end_time: end, remark: '合肥公交场站分时电价' }),
    );
  }
  for (const station of stations) {
    // The depot's drawn site plan, for a station that has none and was never edited.
    const plan = depotSitePlanPng(station.gunIds.length / 2);
    await m.query(
      `INSERT INTO station_picture (station_id, content_type, file_name, size_bytes, data, site_plan)
       SELECT s.id, 'image/png', $2, $3, $4, true FROM station s
        WHERE s.id = $1 AND s.updated_at = s.created_at
          AND NOT EXISTS (SELECT 1 FROM station_picture p WHERE p.station_id = s.id AND p.site_plan)`,
      [station.id, `site-plan-${station.code}.png`, plan.length, plan],
    );
    // One 15 m bus bay in front of each gun.
    for (const [i, gunId] of station.gunIds.entries()) {
      await ensure(
        m,
        'parking_space',
        { station_id: station.id, number: `${station.code}-${String(i + 1).padStart(2, '0')}` },
        () => ({
          gun_id: gunId,
          type: 'bus',
          length_m: 15,
          transverse_distance_m: 4.5,
          vertical_distance_m: 1.2,
          organization_id: organizationId,
        }),
      );
    }
    for (const [n, where] of [
      [1, '入口'],
      [2, '充电区'],
    ] as const) {
      const code = `HF-DEPOT-${station.code}-CAM${n}`;
      await ensure(m, 'camera', { code }, () => ({
        station_id: station.id,
        name: `${station.shortName}${where}摄像头`,
        external_address: `rtsp://camera.voltdepot.example/${code.toLowerCase()}`,
        is_show: true,
        organization_id: organizationId,
      }));
    }
  }
  for (const [number, name, phone, depot] of CREW) {
    const station = stations.find((s) => s.code === depot);
    await ensure(m, 'maintenance_personnel', { number }, () => ({
      name,
      phone,
      station_id: station?.id ?? null,
      enabled: true,
      remark: '充电设备运维',
      organization_id: organizationId,
    }));
  }
}
