import { BusBattery } from './bus-battery';

describe('BusBattery', () => {
  it('charges at full power below the taper point and less above it', () => {
    const battery = new BusBattery({ capacityWh: 350_000, startSoc: 30, maxPowerW: 150_000 });
    expect(battery.powerW()).toBe(150_000);
    battery.soc = 90;
    expect(battery.powerW()).toBeLessThan(150_000);
    expect(battery.powerW()).toBeGreaterThan(15_000);
  });

  it('meters energy consistent with the SoC gained and stops at the target', () => {
    const battery = new BusBattery({ capacityWh: 300_000, startSoc: 20, targetSoc: 90, efficiency: 1 });
    let wh = 0;
    for (let i = 0; i < 1000 && !battery.full; i++) wh += battery.charge(60);
    expect(battery.full).toBe(true);
    expect(wh).toBeGreaterThan(0.69 * 300_000);
    expect(wh).toBeLessThan(0.72 * 300_000);
    expect(battery.charge(60)).toBe(0);
  });
});
