// The workspace's arrangements: the panes docked side by side (flexlayout-react's JSON model), a
// few presets for what a session is about, and the user's own arrangement kept across reloads.
// A stored arrangement is used only when it still holds every pane exactly once: anything else
// (an older version, a hand-edited value) falls back to the default.
import type { IJsonModel, IJsonRowNode, IJsonTabSetNode } from 'flexlayout-react';

export const PANES = ['graph', 'memory', 'code', 'run', 'operator'] as const;
export type PaneId = (typeof PANES)[number];

export const PANE_TITLES: Record<PaneId, string> = { graph: 'Graph', memory: 'Memory', code: 'Code', run: 'Run', operator: 'Operator' };

const tabset = (weight: number, panes: PaneId[], id?: string): IJsonTabSetNode => ({
  type: 'tabset', weight, ...(id ? { id } : {}),
  children: panes.map((p) => ({ type: 'tab', id: `pane-${p}`, name: PANE_TITLES[p], component: p })),
});
const row = (weight: number, children: IJsonRowNode['children']): IJsonRowNode => ({ type: 'row', weight, children });

const GLOBAL: IJsonModel['global'] = {
  tabEnableClose: false,
  tabEnableRename: false,
  tabEnablePopout: false,
  tabSetEnableMaximize: true,
  tabSetMinWidth: 160,
  tabSetMinHeight: 120,
};

export interface Preset { id: string; title: string; hint: string; layout: IJsonRowNode }

// The root row lays its children out left to right, a row inside it top to bottom, and so on.
export const PRESETS: Preset[] = [
  {
    id: 'overview', title: 'Overview', hint: 'every pane at once: the graph and the memory plan on the left, the code and the run on the right',
    layout: row(100, [row(60, [tabset(60, ['graph']), tabset(40, ['memory'])]), row(40, [tabset(68, ['code', 'operator']), tabset(32, ['run'])])]),
  },
  {
    id: 'graph', title: 'Explore the graph', hint: 'the graph large, the other panes as tabs beside it',
    layout: row(100, [tabset(72, ['graph']), tabset(28, ['code', 'memory', 'run', 'operator'])]),
  },
  {
    id: 'code', title: 'Read the code', hint: 'the generated C large, the memory plan and the run beside it',
    layout: row(100, [tabset(60, ['code', 'operator']), row(40, [tabset(50, ['memory', 'graph']), tabset(50, ['run'])])]),
  },
  {
    id: 'run', title: 'Profile a run', hint: 'the run (timeline, per-layer profile) large and full height, the code beside it, the graph and memory as tabs below the code',
    layout: row(100, [tabset(62, ['run']), row(38, [tabset(60, ['code', 'operator']), tabset(40, ['graph', 'memory'])])]),
  },
  {
    id: 'operator', title: 'Add an operator', hint: 'the operator (its spec, kernel and test) large, the memory plan and the graph beside it, the run below them',
    layout: row(100, [tabset(55, ['operator', 'code']), row(45, [tabset(55, ['memory', 'graph']), tabset(45, ['run'])])]),
  },
];

export const DEFAULT_PRESET = 'overview';

export function presetModel(id: string): IJsonModel {
  const p = PRESETS.find((x) => x.id === id) ?? PRESETS[0]!;
  return { global: GLOBAL, layout: p.layout };
}

/** Which panes an arrangement holds, in the order it holds them (tabs anywhere in the tree). */
export function panesOf(json: IJsonModel): string[] {
  const out: string[] = [];
  const walk = (n: { type?: string; component?: string; children?: unknown[] }) => {
    if (n.type === 'tab' && n.component) out.push(n.component);
    for (const c of (n.children ?? []) as typeof n[]) walk(c);
  };
  walk(json.layout as never);
  return out;
}

/**
 * An arrangement made before the Operator pane existed: every other pane once, no operator. It
 * gets the operator as a tab beside the code pane (the user's arrangement is kept).
 */
function withOperator(json: IJsonModel): IJsonModel {
  const panes = panesOf(json);
  const before = PANES.filter((p) => p !== 'operator');
  if (panes.includes('operator') || panes.length !== before.length || !before.every((p) => panes.includes(p))) return json;
  const copy = JSON.parse(JSON.stringify(json)) as IJsonModel;
  const walk = (n: { type?: string; component?: string; children?: unknown[] }): boolean => {
    const kids = (n.children ?? []) as (typeof n)[];
    if (n.type === 'tabset' && kids.some((c) => c.component === 'code')) {
      kids.push({ type: 'tab', id: 'pane-operator', name: PANE_TITLES.operator, component: 'operator' } as never);
      return true;
    }
    return kids.some(walk);
  };
  walk(copy.layout as never);
  return copy;
}

/** A stored arrangement, if it is one this version can use: every pane once, nothing else. */
export function validLayout(value: unknown): IJsonModel | null {
  if (!value || typeof value !== 'object' || !('layout' in value)) return null;
  if ((value as IJsonModel).layout?.type !== 'row') return null;
  const json = withOperator(value as IJsonModel);
  const panes = panesOf(json);
  if (panes.length !== PANES.length || !PANES.every((p) => panes.includes(p))) return null;
  return { ...json, global: GLOBAL };
}

export const LAYOUT_KEY = 'dpg.workspace.v1';

export function loadLayout(storage: Pick<Storage, 'getItem'> | undefined): IJsonModel {
  try {
    const stored = storage?.getItem(LAYOUT_KEY);
    const json = stored ? validLayout(JSON.parse(stored)) : null;
    if (json) return json;
  } catch { /* unreadable: the default */ }
  return presetModel(DEFAULT_PRESET);
}

export function saveLayout(storage: Pick<Storage, 'setItem'> | undefined, json: IJsonModel): void {
  try { storage?.setItem(LAYOUT_KEY, JSON.stringify(json)); } catch { /* storage full or denied: not kept */ }
}
