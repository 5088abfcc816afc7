import { describe, expect, it } from 'vitest';
import { CLOCK_HZ, energyOf, formatEnergy, POWER, STATIC_W } from './energy';

describe('energy estimate (GVSoC Siracusa power models)', () => {
  it('charges instructions, TCDM accesses (the DMA\'s words too) and static power over the run\'s time', () => {
    const e = energyOf({ cycles: 50e6, instructions: 1e6, tcdmAccesses: 2e6, dmaBytes: 4e6 });
    expect(e.instructions).toBeCloseTo(1e6 * 4.98e-12, 15);
    expect(e.tcdm).toBeCloseTo((2e6 + 1e6) * 2.124280487e-12, 15);
    // One second at 50 MHz: the static power itself, 4.35 mW.
    expect(e.static).toBeCloseTo(STATIC_W, 12);
    expect(STATIC_W).toBeCloseTo(9 * 35.5e-6 + 16 * 5.2e-6 + 1.1045e-3 + 2.84e-3, 12);
    expect(e.total).toBeCloseTo(e.instructions + e.tcdm + e.static, 15);
    // Twice the clock: the same work, half the static energy.
    expect(energyOf({ cycles: 50e6, instructions: 0, tcdmAccesses: 0, dmaBytes: 0 }, 2 * CLOCK_HZ).static).toBeCloseTo(STATIC_W / 2, 12);
    for (const v of Object.values(POWER)) expect(v.source).toMatch(/power_models\//);
  });

  it('formats joules in nJ, uJ or mJ', () => {
    expect(formatEnergy(3.84e-6)).toBe('3.84 uJ');
    expect(formatEnergy(57.1e-9)).toBe('57.1 nJ');
    expect(formatEnergy(1.234e-3)).toBe('1.23 mJ');
  });
});
