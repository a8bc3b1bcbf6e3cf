import { unique } from '../fixtures/asset-builders';

/** Valid bodies of the grids added after the first assets api, with overrides. */
type Body = Record<string, unknown>;

export const aParkingSpace = (stationId: number, o: Body = {}): Body => ({
  stationId,
  number: unique('PS'),
  type: 'bus',
  lengthM: 12.5,
  transverseDistanceM: 0.8,
  verticalDistanceM: 1.2,
  ...o,
});
export const aCamera = (stationId: number, o: Body = {}): Body => ({
  stationId,
  code: unique('CAM-'),
  name: 'Gate camera',
  externalAddress: 'rtsp://10.0.0.21:554/stream1',
  ...o,
});
export const anAlarmCode = (o: Body = {}): Body => ({
  protocolType: 'ocpp1.6',
  code: unique('E'),
  name: 'Ground fault',
  level: 2,
  category: 'general',
  ...o,
});
export const aStopCode = (o: Body = {}): Body => ({
  protocolType: 'ocpp1.6',
  code: unique('S'),
  name: 'EV disconnected',
  normal: true,
  ...o,
});
export const aMaintenancePerson = (o: Body = {}): Body => ({
  number: unique('M'),
  name: 'Chen Liu',
  phone: '138 0000 0000',
  ...o,
});
export const aPeakTime = (stationId: number | null, o: Body = {}): Body => ({
  stationId,
  periodType: 'peak',
  startTime: '08:00',
  endTime: '11:00',
  ...o,
});

/** The smallest valid PNG and JPEG headers followed by filler: enough for the signature check. */
export function aPng(bytes = 256): Buffer {
  const b = Buffer.alloc(bytes, 7);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(b);
  return b;
}
export function aJpeg(bytes = 256): Buffer {
  const b = Buffer.alloc(bytes, 7);
  Buffer.from([0xff, 0xd8, 0xff, 0xe0]).copy(b);
  return b;
}
