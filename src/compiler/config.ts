// The user's compile/run configuration: one shape shared by the compiler's stages, the UI store, the worker, the
// share link and the CLI flags (which are Deeploy's runner flags).
import { fail } from '../common/errors';

export const PLATFORMS = ['generic', 'siracusa', 'siracusa-neureka'] as const;
export type PlatformName = (typeof PLATFORMS)[number];
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
  platform: 'siracusa',
  cores: 8,
  tiled: true,
  l1: 64_000,
  l2: 1_024_000,
  defaultMemLevel: 'L2',
  doubleBuffer: false,
  neurekaWmem: false,
  profileTiling: null,
};

export const LIMITS = {
  cores: { min: 1, max: 8 },
  l1: { min: 1_024, max: 256 * 1024 },      // the TCDM is 256 KiB
  l2: { min: 16 * 1024, max: 2 * 1024 * 1024 }, // on-chip L2 is 2 MiB
} as const;

/** Siracusa's TCDM (256 KiB) less the 20 KiB of core stacks at its top (runtime/siracusa/link.ld). */
const SIRACUSA_L1_USABLE = 256 * 1024 - 20 * 1024;

/** Checks every field; throws a bad-config error naming the field and the allowed range. */
export function validateConfig(c: Config): Config {
  if (!PLATFORMS.includes(c.platform))
    fail('bad-config', `unknown platform '${c.platform}'`, 'platform', `use one of ${PLATFORMS.join(', ')}`);
  const range = (field: 'cores' | 'l1' | 'l2') => {
    const v = c[field];
    const { min, max } = LIMITS[field];
    if (!Number.isInteger(v) || v < min || v > max)
      fail('bad-config', `${field} = ${v} is out of range`, field, `use an integer from ${min} to ${max}`);
  };
  range('cores');
  range('l1');
  if (c.platform !== 'generic' && c.l1 > SIRACUSA_L1_USABLE)
    fail('bad-config', `L1 = ${c.l1} B does not fit Siracusa's L1: 262144 B less 20480 B of core stacks leaves ${SIRACUSA_L1_USABLE} B`,
      'l1', `use at most ${SIRACUSA_L1_USABLE} B`);
  range('l2');
  if (c.defaultMemLevel !== 'L2' && c.defaultMemLevel !== 'L3')
    fail('bad-config', `defaultMemLevel '${c.defaultMemLevel}' is not L2 or L3`, 'defaultMemLevel');
  if (c.profileTiling !== null && c.profileTiling !== 'L2' && c.profileTiling !== 'L3')
    fail('bad-config', `profileTiling '${c.profileTiling}' is not L2 or L3`, 'profileTiling');
  if (c.neurekaWmem && c.platform !== 'siracusa-neureka')
    fail('bad-config', 'the weight memory needs the N-EUREKA platform', 'neurekaWmem',
      "select platform 'siracusa-neureka' or turn the weight memory off");
  return c;
}
