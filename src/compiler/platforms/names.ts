// The platforms' names, and the one the playground starts on.
export const PLATFORMS = ['generic', 'siracusa', 'siracusa-neureka'] as const;
export type PlatformName = (typeof PLATFORMS)[number];

/** Deeploy's tiled Siracusa runs (see shared/reference/siracusa.md). */
export const DEFAULT_PLATFORM: PlatformName = 'siracusa';
