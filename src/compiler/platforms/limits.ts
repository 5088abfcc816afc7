// What each platform's config may ask for, apart from the platforms themselves (their passes and
// kernel catalogues), so that validateConfig and the UI's fields load only these few numbers.
// Each Platform points at its entry (Platform.limits).
import type { PlatformName } from './names';
import { SIRACUSA_LIMITS } from './siracusa-memory';
import { KiB, MiB, type ConfigLimits } from './types';

export const PLATFORM_LIMITS: Record<PlatformName, ConfigLimits> = {
  // Its own ranges: nothing is tiled or placed in L1 here; the fields keep the ranges they always had.
  generic: {
    cores: { min: 1, max: 8 }, l1: { min: 1_024, max: 256 * KiB }, l2: { min: 16 * KiB, max: 2 * MiB }, neurekaWmem: false,
    // Plain C on one host core with static buffers: none of the cluster's settings apply.
    ignores: {
      fields: ['cores', 'tiled', 'l1', 'l2', 'defaultMemLevel', 'doubleBuffer', 'profileTiling'],
      reason: 'not used by Generic',
      note: 'Generic runs plain C on one host core with one flat memory: nothing is tiled, so the settings below do not apply',
      summary: 'generic · 1 core · untiled · one flat memory',
    },
  },
  siracusa: SIRACUSA_LIMITS,
  'siracusa-neureka': { ...SIRACUSA_LIMITS, neurekaWmem: true },
};
