import type { ReactNode } from 'react';
import type { MemLevel, PlatformName } from '../../compiler/config';
import { PLATFORMS } from '../../compiler/config';
import { updateConfig, useStore } from '../store';
import type { Control } from './applies';
import { ignoredBecause, ignoredTitle, platformNote } from './applies';
import { ConfigSummary } from './ConfigSummary';
import { NumberField } from './NumberField';

const PLATFORM_LABELS: Record<PlatformName, string> = {
  generic: 'Generic',
  siracusa: 'Siracusa',
  'siracusa-neureka': 'Siracusa + N-EUREKA',
};

/** Why a control has no effect now (a disabled control shows it), or null; and the reason at length. */
function useIgnored(control: Control): [string | null, string | undefined] {
  return [useStore((s) => ignoredBecause(s.config, control)), useStore((s) => ignoredTitle(s.config, control))];
}

function Note({ testid, reason }: { testid: string; reason: string | null }) {
  return reason ? <span className="field-note" data-testid={`${testid}-ignored`}>{reason}</span> : null;
}

function Check({ label, checked, control, testid, onChange }: {
  label: string; checked: boolean; control: Control; testid: string; onChange: (v: boolean) => void;
}) {
  const [ignored, title] = useIgnored(control);
  return (
    <div className="check-row">
      <label className={`check ${ignored ? 'disabled' : ''}`} title={title}>
        <input type="checkbox" checked={checked} disabled={ignored !== null} data-testid={testid}
          onChange={(e) => onChange(e.target.checked)} />
        <span>{label}</span>
      </label>
      <Note testid={testid} reason={ignored} />
    </div>
  );
}

function Select({ label, control, testid, value, onChange, children }: {
  label: string; control: Control; testid: string; value: string; onChange: (v: string) => void; children: ReactNode;
}) {
  const [ignored, title] = useIgnored(control);
  return (
    <label className={`field ${ignored ? 'disabled' : ''}`} title={title}>
      <span className="field-label">{label}</span>
      <select value={value} data-testid={testid} disabled={ignored !== null} onChange={(e) => onChange(e.target.value)}>
        {children}
      </select>
      <Note testid={testid} reason={ignored} />
    </label>
  );
}

/** The compile configuration (Deeploy's runner flags). Every change is validated before it is stored. */
export function ConfigPanel() {
  const config = useStore((s) => s.config);
  const note = platformNote(config);
  return (
    <section className="panel config" data-testid="config-panel">
      <h2>Configuration</h2>
      <label className="field">
        <span className="field-label">Platform</span>
        <select value={config.platform} data-testid="cfg-platform"
          onChange={(e) => updateConfig({ platform: e.target.value as PlatformName })}>
          {PLATFORMS.map((p) => <option key={p} value={p}>{PLATFORM_LABELS[p]}</option>)}
        </select>
        {note && <span className="field-note" data-testid="cfg-platform-note">{note}</span>}
      </label>
      <NumberField field="cores" />
      <Check label="Tiled" checked={config.tiled} control="tiled" testid="cfg-tiled" onChange={(v) => updateConfig({ tiled: v })} />
      <NumberField field="l1" unit="bytes" />
      <NumberField field="l2" unit="bytes" />
      <Select label="Default memory level" control="defaultMemLevel" testid="cfg-mem-level" value={config.defaultMemLevel}
        onChange={(v) => updateConfig({ defaultMemLevel: v as MemLevel })}>
        <option value="L2">L2</option>
        <option value="L3">L3</option>
      </Select>
      <Check label="Double buffering" checked={config.doubleBuffer} control="doubleBuffer" testid="cfg-double-buffer"
        onChange={(v) => updateConfig({ doubleBuffer: v })} />
      <Check label="N-EUREKA weight memory" checked={config.neurekaWmem} control="neurekaWmem" testid="cfg-neureka-wmem"
        onChange={(v) => updateConfig({ neurekaWmem: v })} />
      <Select label="Profile tiling" control="profileTiling" testid="cfg-profile-tiling" value={config.profileTiling ?? 'off'}
        onChange={(v) => updateConfig({ profileTiling: v === 'off' ? null : (v as MemLevel) })}>
        <option value="off">off</option>
        <option value="L2">L2</option>
        <option value="L3">L3</option>
      </Select>
      <ConfigSummary />
    </section>
  );
}
