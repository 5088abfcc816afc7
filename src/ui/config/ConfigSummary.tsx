import { useStore } from '../store';
import { summarizeConfig } from './applies';

/** One line with what the next compile does with the stored configuration. */
export function ConfigSummary() {
  const config = useStore((s) => s.config);
  return <p className="config-summary" data-testid="config-summary">{summarizeConfig(config)}</p>;
}
