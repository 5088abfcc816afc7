// Which configuration controls the chosen platform actually uses, and why the others have no
// effect: the panel disables those, and the summary leaves them out.
// What each platform ignores is the platform's own fact (platforms/limits.ts), read here.
import { limitsFor, type Config } from '../../compiler/config';
import type { TuningField } from '../../compiler/platforms/types';

export type Control = TuningField | 'neurekaWmem';

/** What the platform is, when that explains why controls do not apply (shown under the platform). */
export function platformNote(c: Config): string | null {
  return limitsFor(c.platform).ignores?.note ?? null;
}

const UNTILED = 'only used when tiled';

/** Why `control` has no effect with configuration `c`, or null when it has one. */
export function ignoredBecause(c: Config, control: Control): string | null {
  const limits = limitsFor(c.platform);
  if (control === 'neurekaWmem') return limits.neurekaWmem ? null : 'only on Siracusa + N-EUREKA';
  if (limits.ignores?.fields.includes(control)) return limits.ignores.reason;
  if (!c.tiled && (control === 'l1' || control === 'doubleBuffer' || control === 'profileTiling')) return UNTILED;
  return null;
}

/** The tooltip of an ignored control: the reason at length. */
export function ignoredTitle(c: Config, control: Control): string | undefined {
  const short = ignoredBecause(c, control);
  if (!short) return undefined;
  const note = control === 'neurekaWmem' ? null : platformNote(c);
  return note ? `${short}: ${note}` : short;
}

/** One line with what the next compile really does with the stored configuration. */
export function summarizeConfig(c: Config): string {
  const ignores = limitsFor(c.platform).ignores;
  if (ignores) return ignores.summary;
  const used = (k: Control) => ignoredBecause(c, k) === null;
  return [
    c.platform,
    `${c.cores} ${c.cores === 1 ? 'core' : 'cores'}`,
    c.tiled ? 'tiled' : 'untiled',
    ...(used('l1') ? [`L1 ${c.l1} B`] : []),
    `L2 ${c.l2} B`,
    `home ${c.defaultMemLevel}`,
    ...(used('doubleBuffer') ? [c.doubleBuffer ? 'double-buffered' : 'single-buffered'] : []),
    ...(c.neurekaWmem ? ['weight memory'] : []),
    ...(used('profileTiling') ? [`profile ${c.profileTiling ?? 'off'}`] : []),
  ].join(' · ');
}
