import type { AuthorizationStatus } from '@voltdepot/shared-ocpp';

/** A transaction as the writers read it back. */
export type TxRow = {
  transaction_id: number;
  connector_id: number;
  id_tag: string;
  id_tag_status: AuthorizationStatus;
  meter_start_wh: number;
  started_at: Date;
};

/** `meter_start_wh` is a bigint column, which node-postgres reads as text: make it a number again. */
export function meterAsNumber<T extends { meter_start_wh: number }>(rows: T[]): T[] {
  for (const row of rows) row.meter_start_wh = Number(row.meter_start_wh);
  return rows;
}
