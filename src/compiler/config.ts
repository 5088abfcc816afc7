// The user's compile/run configuration: one shape shared by the compiler's stages, the UI store, the worker, the
// share link and the CLI flags (which are Deeploy's runner flags).
import { fail } from '../common/errors';
import { PLATFORM_LIMITS } from './platforms/limits';
import { DEFAULT_PLATFORM, PLATFORMS, type PlatformName } from './platforms/names';
import type { ConfigLimits } from './platforms/types';

export { PLATFORMS, type PlatformName };
export type MemLevel = 'L2' | 'L3';

export interface Config {
  platform: PlatformName;
  /** Cluster cores used by kernels, 1..8. */
  cores: number;
  tiled: boolean;
  /** L1 (TCDM) budget for tiles, bytes. */
  l1: number;
  /** L2 budget, bytes. */
  l2: number;
  /** Home level of activations and weights. */
  defaultMemLevel: MemLevel;
  doubleBuffer: boolean;
  /** N-EUREKA weights in the weight memory (siracusa-neureka only). */
  neurekaWmem: boolean;
  /** Per-tile profiling instrumentation at this level, or off. */
  profileTiling: MemLevel | null;
}

// Deeploy's defaults for tiled Siracusa runs (see shared/reference/siracusa.md).
export const DEFAULT_CONFIG: Config = {
  platform: DEFAULT_PLATFORM,
  cores: 8,
  tiled: true,
  l1: 64_000,
  l2: 1_024_000,
  defaultMemLevel: 'L2',
  doubleBuffer: false,
  neurekaWmem: false,
  profileTiling: null,
};

/** The ranges of a platform's config fields (its memory less what its runtime reserves). */
export function limitsFor(platform: PlatformName): ConfigLimits {
  return PLATFORM_LIMITS[platform];
}

/** The default platform's ranges of the numeric fields. */
export const LIMITS: Pick<ConfigLimits, 'cores' | 'l1' | 'l2'> = limitsFor(DEFAULT_PLATFORM);

const LABEL = { cores: 'cores', l1: 'L1', l2: 'L2' } as const;

/**
 * Checks every field against the platform; throws a bad-config error whose `where` is the field
 * (so a UI can attach it to its control) and whose hint names the values that are allowed.
 */
export function validateConfig(c: Config): Config {
  if (!PLATFORMS.includes(c.platform))
    fail('bad-config', `unknown platform '${c.platform}'`, 'platform', `use one of ${PLATFORMS.join(', ')}`);
  const limits = limitsFor(c.platform);
  const range = (field: keyof typeof LIMITS) => {
    const v = c[field];
    const { min, max, over } = limits[field];
    if (over && Number.isInteger(v) && v > max)
      fail('bad-config', `${LABEL[field]} = ${v} B does not fit ${over}`, field, `use at most ${max} B`);
    if (!Number.isInteger(v) || v < min || v > max)
      fail('bad-config', `${field} = ${v} is out of range`, field, `use an integer from ${min} to ${max}`);
  };
  range('cores');
  range('l1');
  range('l2');
  if (c.defaultMemLevel !== 'L2' && c.defaultMemLevel !== 'L3')
    fail('bad-config', `defaultMemLevel '${c.defaultMemLevel}' is not L2 or L3`, 'defaultMemLevel');
  if (c.profileTiling !== null && c.profileTiling !== 'L2' && c.profileTiling !== 'L3')
    fail('bad-config', `profileTiling '${c.profileTiling}' is not L2 or L3`, 'profileTiling');
  const withWmem = PLATFORMS.filter((p) => PLATFORM_LIMITS[p].neurekaWmem).map((p) => `'${p}'`);
  if (c.neurekaWmem && !limits.neurekaWmem)
    fail('bad-config', 'the weight memory needs the N-EUREKA platform', 'neurekaWmem',
      `select platform ${withWmem.join(' or ')} or turn the weight memory off`);
  return c;
}
