import { apiSchemas, view } from '@voltdepot/server-core';
import { z } from 'zod';

// The home page's figures of the day: counts, energy in integer Wh, money in integer fen, instants ISO 8601.

const count = z.number().int().min(0);
const onlineOfTotal = view({ online: count, total: count });

export const todayOverviewSchema = apiSchemas.named(
  'TodayOverview',
  view({
    businessDay: view({
      date: z.string().describe('YYYY-MM-DD in the business time zone'),
      timeZone: z.string().describe('The system setting businessTimeZone, e.g. Asia/Shanghai'),
      from: z.string().describe('Start of the day (inclusive)'),
      to: z.string().describe('Start of the next day (exclusive)'),
    }),
    stations: onlineOfTotal.describe('A station is online while one of its piles is'),
    piles: onlineOfTotal,
    guns: view({ online: count, total: count, charging: count }),
    orders: view({
      count,
      energyWh: z.number().int().describe('Energy of the orders stopped today, Wh'),
      revenueFen: z.number().int().describe('Amount of the orders stopped today, fen'),
    }).describe("Today's orders as the order query totals them"),
    faults: view({
      open: count.describe('Open faults'),
      piles: count.describe('Piles with a faulted gun'),
      guns: count.describe('Faulted guns'),
    }).describe('Piles and guns whose live status is fault now'),
  }),
);
export type TodayOverview = z.infer<typeof todayOverviewSchema>;
