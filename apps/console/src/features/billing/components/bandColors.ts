import type { StageTypeCode } from '@voltdepot/shared-contracts';

/** One colour per charging period type, used by every billing chart and tag. */
export const BAND_COLORS: Record<StageTypeCode, string> = {
  sharp: '#f5222d',
  peak: '#fa8c16',
  normal: '#1677ff',
  valley: '#52c41a',
  deepValley: '#13c2c2',
};
