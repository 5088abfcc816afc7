import type { MemLevel, PlatformName } from '../../compiler/config';
import { PLATFORMS } from '../../compiler/config';
import { updateConfig, useStore } from '../store';
import { ConfigSummary } from './ConfigSummary';
import { NumberField } from './NumberField';

const PLATFORM_LABELS: Record<PlatformName, string> = {
  generic: 'Generic',
  siracusa: 'Siracusa',
  'siracusa-neureka': 'Siracusa + N-EUREKA',
};

function Check({ label, checked, disabled, testid, onChange, title }: {
  label: string; checked: boolean; disabled?: boolean; testid: string; title?: string;
  onChange: (v: boolean) => void;
}) {
  return (
    <label className={`check ${disabled ? 'disabled' : ''}`} title={title}>
      <input type="checkbox" checked={checked} disabled={disabled} data-testid={testid}
        onChange={(e) => onChange(e.target.checked)} />
      <span>{label}</span>
    </label>
  );
}

/** The compile configuration (Deeploy's runner flags). Every change is validated before it is stored. */
export function ConfigPanel() {
  const config = useStore((s) => s.config);
  const neureka = config.platform === 'siracusa-neureka';
  return (
    <section className="panel config" data-testid="config-panel">
      <h2>Configuration</h2>
      <label className="field">
        <span className="field-label">Platform</span>
        <select value={config.platform} data-testid="cfg-platform"
          onChange={(e) => updateConfig({ platform: e.target.value as PlatformName })}>
          {PLATFORMS.map((p) => <option key={p} value={p}>{PLATFORM_LABELS[p]}</option>)}
        </select>
      </label>
      <NumberField field="cores" label="Cores" />
      <Check label="Tiled" checked={config.tiled} testid="cfg-tiled" onChange={(v) => updateConfig({ tiled: v })} />
      <NumberField field="l1" label="L1 size" unit="bytes" />
      <NumberField field="l2" label="L2 size" unit="bytes" />
      <label className="field">
        <span className="field-label">Default memory level</span>
        <select value={config.defaultMemLevel} data-testid="cfg-mem-level"
          onChange={(e) => updateConfig({ defaultMemLevel: e.target.value as MemLevel })}>
          <option value="L2">L2</option>
          <option value="L3">L3</option>
        </select>
      </label>
      <Check label="Double buffering" checked={config.doubleBuffer} testid="cfg-double-buffer"
        onChange={(v) => updateConfig({ doubleBuffer: v })} />
      <Check label="N-EUREKA weight memory" checked={config.neurekaWmem} disabled={!neureka} testid="cfg-neureka-wmem"
        title={neureka ? undefined : 'only on Siracusa + N-EUREKA'} onChange={(v) => updateConfig({ neurekaWmem: v })} />
      <label className="field">
        <span className="field-label">Profile tiling</span>
        <select value={config.profileTiling ?? 'off'} data-testid="cfg-profile-tiling"
          onChange={(e) => updateConfig({ profileTiling: e.target.value === 'off' ? null : (e.target.value as MemLevel) })}>
          <option value="off">off</option>
          <option value="L2">L2</option>
          <option value="L3">L3</option>
        </select>
      </label>
      <ConfigSummary />
    </section>
  );
}
