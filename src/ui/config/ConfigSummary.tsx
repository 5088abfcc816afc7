import type { Config } from '../../compiler/config';
import { useStore } from '../store';

/** One line with the stored configuration: exactly what the next compile uses. */
function summarizeConfig(c: Config): string {
  return [
    c.platform,
    `${c.cores} ${c.cores === 1 ? 'core' : 'cores'}`,
    c.tiled ? 'tiled' : 'untiled',
    `L1 ${c.l1} B`,
    `L2 ${c.l2} B`,
    `home ${c.defaultMemLevel}`,
    c.doubleBuffer ? 'double-buffered' : 'single-buffered',
    ...(c.neurekaWmem ? ['weight memory'] : []),
    `profile ${c.profileTiling ?? 'off'}`,
  ].join(' · ');
}

export function ConfigSummary() {
  const config = useStore((s) => s.config);
  return <p className="config-summary" data-testid="config-summary">{summarizeConfig(config)}</p>;
}
