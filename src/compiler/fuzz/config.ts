// Configurations for fuzz cases: every platform, core count, tiling on and off, L1 and L2 from
// their smallest to their largest, both home levels, double buffering, the weight memory and
// profiling, all within the platform's ranges (validateConfig's refusals are not what the
// fuzzer is after: it wants the stages past it to meet unusual but legal settings).
import type { Config } from '../config';
import { limitsFor } from '../config';
import { PLATFORMS } from '../platforms/names';
import type { Rng } from './prng';
import { int, pick } from './prng';

export function fuzzConfig(rng: Rng): Config {
  // Every platform equally: which one is no business of the fuzzer (platform knowledge lives
  // in src/compiler/platforms).
  const platform = pick(rng, PLATFORMS);
  const lim = limitsFor(platform);
  const clamp = (v: number, r: { min: number; max: number }) => Math.min(r.max, Math.max(r.min, v));
  const l1 = clamp(pick(rng, [lim.l1.min, 2048, 8192, 16_000, 32_000, 64_000, 64_000, 128_000, lim.l1.max, int(rng, lim.l1.min, lim.l1.max)]), lim.l1);
  const l2 = clamp(pick(rng, [lim.l2.min, 64_000, 256_000, 512_000, 1_024_000, 1_024_000, lim.l2.max, int(rng, lim.l2.min, lim.l2.max)]), lim.l2);
  return {
    platform,
    cores: clamp(pick(rng, [1, 2, 4, 8, 8, int(rng, 1, 8)]), lim.cores),
    tiled: rng() < 0.85,
    l1,
    l2,
    defaultMemLevel: rng() < 0.75 ? 'L2' : 'L3',
    doubleBuffer: rng() < 0.5,
    neurekaWmem: lim.neurekaWmem && rng() < 0.3,
    profileTiling: pick(rng, [null, null, null, null, null, 'L2', 'L3'] as const),
  };
}

/** A config in a few words, for reproducers. */
export function describeConfig(c: Config): string {
  return [c.platform, `${c.cores} cores`, c.tiled ? `L1 ${c.l1}` : 'untiled', `L2 ${c.l2}`, `home ${c.defaultMemLevel}`,
    ...(c.doubleBuffer ? ['doublebuffer'] : []), ...(c.neurekaWmem ? ['wmem'] : []), ...(c.profileTiling ? [`profile ${c.profileTiling}`] : [])].join(', ');
}
