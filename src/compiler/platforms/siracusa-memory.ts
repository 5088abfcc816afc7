// Siracusa's memory map and the L1 its runtime keeps for itself: the one home of these numbers,
// and the config limits they set. The platform's memory levels are built from them; the runtime's link script
// (src/compiler/runtime/siracusa/link.ld) and the simulator's address map (src/sim/as/layout.ts,
// AssemblyScript) cannot import them and are checked against them by platforms.test.ts.
import { KiB, MiB, type ConfigLimits } from './types';

/** Base address and size of each memory the cluster sees (GVSoC's map). */
export const SIRACUSA_MAP = {
  L1: { base: 0x1000_0000, bytes: 256 * KiB },
  L2: { base: 0x1c00_0000, bytes: 2 * MiB },
  L3: { base: 0x8000_0000, bytes: 16 * MiB },
  WMEM: { base: 0x1040_0000, bytes: 4 * MiB },
} as const;

/** The core stacks at the top of L1: the controller's, then one per worker below it. */
export const CORE_STACKS = { controller: 4 * KiB, worker: 2 * KiB, workers: 8 } as const;

/** L1 bytes the core stacks take (20 KiB). */
export const CORE_STACKS_BYTES = CORE_STACKS.controller + CORE_STACKS.workers * CORE_STACKS.worker;

/** L1 bytes a program's buffers may use: all of L1 below the core stacks. */
export const USABLE_L1 = SIRACUSA_MAP.L1.bytes - CORE_STACKS_BYTES;

/** What a Siracusa config can ask for: L1 below the core stacks, L2 as large as the SoC's. */
export const SIRACUSA_LIMITS: ConfigLimits = {
  cores: { min: 1, max: 8 },
  l1: { min: 1_024, max: USABLE_L1,
    over: `Siracusa's L1: ${SIRACUSA_MAP.L1.bytes} B less ${CORE_STACKS_BYTES} B of core stacks leaves ${USABLE_L1} B` },
  l2: { min: 16 * KiB, max: SIRACUSA_MAP.L2.bytes, over: `Siracusa's L2 of ${SIRACUSA_MAP.L2.bytes} B` },
  neurekaWmem: false,
};
