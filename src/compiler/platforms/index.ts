// The platforms, by name.
import type { PlatformName } from '../config';
import { generic } from './generic';
import { siracusa } from './siracusa';
import { siracusaNeureka } from './siracusa-neureka';
import type { Platform } from './types';

export type { Platform, MemoryLevel, Engine } from './types';

export const PLATFORM_DEFS: Record<PlatformName, Platform> = {
  generic,
  siracusa,
  'siracusa-neureka': siracusaNeureka,
};

export function platformFor(name: PlatformName): Platform {
  return PLATFORM_DEFS[name];
}
