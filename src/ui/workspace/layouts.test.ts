import { describe, expect, it } from 'vitest';
import { LAYOUT_KEY, loadLayout, PANES, panesOf, PRESETS, presetModel, saveLayout, validLayout } from './layouts';

const store = (init: Record<string, string> = {}) => {
  const m = new Map(Object.entries(init));
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => { m.set(k, v); }, m };
};

describe('workspace layouts', () => {
  it('every preset holds every pane exactly once', () => {
    for (const p of PRESETS) expect(panesOf(presetModel(p.id)).sort(), p.id).toEqual([...PANES].sort());
  });

  it('keeps a valid arrangement and falls back to the default for anything else', () => {
    const s = store();
    const code = presetModel('code');
    saveLayout(s, code);
    expect(panesOf(loadLayout(s))).toEqual(panesOf(code));
    const fallback = panesOf(presetModel('overview'));
    for (const bad of ['not json', '{}', JSON.stringify({ layout: { type: 'row', children: [] } }),
      JSON.stringify({ layout: { type: 'row', children: [{ type: 'tabset', children: [{ type: 'tab', component: 'graph' }, { type: 'tab', component: 'graph' }] }] } })]) {
      expect(panesOf(loadLayout(store({ [LAYOUT_KEY]: bad }))), bad).toEqual(fallback);
    }
    expect(panesOf(loadLayout(undefined))).toEqual(fallback);
  });

  it('refuses an arrangement with an unknown pane', () => {
    const json = presetModel('overview');
    const text = JSON.stringify(json).replace('"component":"run"', '"component":"profiler"');
    expect(validLayout(JSON.parse(text))).toBeNull();
  });
});

describe('arrangements from before the Operator pane', () => {
  it('get the operator as a tab beside the code pane, the rest as it was', () => {
    const old = JSON.parse(JSON.stringify(presetModel('code')).replace(/,\{"type":"tab","id":"pane-operator","name":"Operator","component":"operator"\}/, ''));
    expect(panesOf(old)).not.toContain('operator');
    const json = validLayout(old)!;
    expect(json).not.toBeNull();
    expect(panesOf(json).sort()).toEqual([...PANES].sort());
    expect(panesOf(json).slice(0, 2)).toEqual(['code', 'operator']);
  });
});
