import type { ChargingProfile } from '@voltdepot/shared-ocpp';
import { activeLimitW, compositeSchedule, profileLimitW, type InstalledProfile } from './charging-profiles';

const T0 = Date.parse('2026-03-01T00:00:00Z');

function profile(overrides: Partial<ChargingProfile> = {}, periods = [{ startPeriod: 0, limit: 50_000 }]) {
  return {
    chargingProfileId: 1,
    stackLevel: 0,
    chargingProfilePurpose: 'TxDefaultProfile',
    chargingProfileKind: 'Absolute',
    ...overrides,
    chargingSchedule: {
      startSchedule: new Date(T0).toISOString(),
      chargingRateUnit: 'W',
      chargingSchedulePeriod: periods,
      ...overrides.chargingSchedule,
    },
  } as ChargingProfile;
}

const ctx = { connectorId: 1, at: T0, voltageV: 400 };

describe('profileLimitW', () => {
  it('picks the period in force, converts amperes with the voltage and ends after the duration', () => {
    const p = profile({ chargingSchedule: { chargingRateUnit: 'A', duration: 600 } as never }, [
      { startPeriod: 0, limit: 100 },
      { startPeriod: 300, limit: 50 },
    ]);
    expect(profileLimitW(p, { ...ctx, at: T0 + 10_000 })).toBe(40_000);
    expect(profileLimitW(p, { ...ctx, at: T0 + 300_000 })).toBe(20_000);
    expect(profileLimitW(p, { ...ctx, at: T0 + 600_000 })).toBeUndefined();
    expect(profileLimitW(p, { ...ctx, at: T0 - 1 })).toBeUndefined();
  });

  it('runs a Relative profile from the transaction start and repeats a Daily one', () => {
    const relative = profile({ chargingProfileKind: 'Relative' }, [
      { startPeriod: 0, limit: 10_000 },
      { startPeriod: 60, limit: 20_000 },
    ]);
    expect(profileLimitW(relative, ctx)).toBeUndefined();
    expect(profileLimitW(relative, { ...ctx, at: T0 + 90_000, transactionStartedAt: T0 + 20_000 })).toBe(
      20_000,
    );
    const daily = profile({ chargingProfileKind: 'Recurring', recurrencyKind: 'Daily' }, [
      { startPeriod: 0, limit: 10_000 },
      { startPeriod: 3600, limit: 30_000 },
    ]);
    expect(profileLimitW(daily, { ...ctx, at: T0 + 86_400_000 + 60_000 })).toBe(10_000);
    expect(profileLimitW(daily, { ...ctx, at: T0 + 2 * 86_400_000 + 7_200_000 })).toBe(30_000);
  });
});

describe('activeLimitW', () => {
  const installed: InstalledProfile[] = [
    { connectorId: 0, profile: profile({ chargingProfileId: 1 }, [{ startPeriod: 0, limit: 60_000 }]) },
    {
      connectorId: 1,
      profile: profile({ chargingProfileId: 2, chargingProfilePurpose: 'TxProfile' }, [
        { startPeriod: 0, limit: 30_000 },
      ]),
    },
    {
      connectorId: 0,
      profile: profile({ chargingProfileId: 3, chargingProfilePurpose: 'ChargePointMaxProfile' }, [
        { startPeriod: 0, limit: 45_000 },
      ]),
    },
  ];

  it('uses the TxProfile during a transaction, else the TxDefaultProfile, capped by ChargePointMaxProfile', () => {
    expect(activeLimitW(installed, { ...ctx, transactionStartedAt: T0 })).toBe(30_000);
    expect(activeLimitW(installed, ctx)).toBe(45_000);
    expect(activeLimitW(installed.slice(0, 1), ctx)).toBe(60_000);
    expect(activeLimitW([], ctx)).toBeUndefined();
  });

  it('prefers the higher stack level', () => {
    const stacked: InstalledProfile[] = [
      { connectorId: 1, profile: profile({ stackLevel: 1 }, [{ startPeriod: 0, limit: 11_000 }]) },
      { connectorId: 1, profile: profile({ stackLevel: 3 }, [{ startPeriod: 0, limit: 33_000 }]) },
    ];
    expect(activeLimitW(stacked, ctx)).toBe(33_000);
  });
});

describe('compositeSchedule', () => {
  it('merges the effective limit into periods, capped by the gun maximum', () => {
    const installed: InstalledProfile[] = [
      {
        connectorId: 1,
        profile: profile({ chargingSchedule: { duration: 120 } as never }, [
          { startPeriod: 0, limit: 200_000 },
          { startPeriod: 60, limit: 40_000 },
        ]),
      },
    ];
    expect(compositeSchedule(installed, ctx, 180, 150_000, 'W')).toEqual({
      duration: 180,
      startSchedule: new Date(T0).toISOString(),
      chargingRateUnit: 'W',
      chargingSchedulePeriod: [
        { startPeriod: 0, limit: 150_000 },
        { startPeriod: 60, limit: 40_000 },
        { startPeriod: 120, limit: 150_000 },
      ],
    });
    expect(compositeSchedule(installed, ctx, 90, 150_000, 'A').chargingSchedulePeriod).toEqual([
      { startPeriod: 0, limit: 375 },
      { startPeriod: 60, limit: 100 },
    ]);
  });
});
