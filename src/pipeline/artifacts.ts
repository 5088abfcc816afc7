// The files a stage's result becomes, for `dpg compile --out` and the UI's downloads.
import type { StageOutcome } from './results';
import { writeNpz } from '../compiler/npz';
import type { LowerResult } from '../compiler/lower/types';
import { writeOnnx } from '../compiler/onnx/write';
import { platformFor } from '../compiler/platforms';
import type { TilePlan } from '../compiler/tiling/types';
import { tilingTable } from '../compiler/tiling/report';

export interface Artifact {
  path: string;
  data: Uint8Array | string;
}

export function artifactsOf(o: StageOutcome): Artifact[] {
  switch (o.stage) {
    case 'parse': {
      const r = o.result;
      return [
        { path: 'summary.json', data: JSON.stringify(r.stats, null, 2) + '\n' },
        // The parsed, typed graph (value_info filled in): opens in Netron with every shape shown.
        { path: 'typed.onnx', data: writeOnnx(r.graph) },
      ];
    }
    case 'reference': {
      const r = o.result;
      const files: Artifact[] = [{ path: 'outputs.npz', data: writeNpz(r.outputs) }];
      if (r.comparison) files.push({ path: 'comparison.json', data: JSON.stringify(r.comparison, null, 2) + '\n' });
      return files;
    }
    case 'lower':
      return lowerArtifacts(o.result);
    case 'tile':
      return tileArtifacts(o.result);
    case 'codegen': {
      // The C program, and where each layer's code is (layers.json: node -> file/line ranges).
      const r = o.result;
      const map = { platform: r.platform, cores: r.cores, testData: r.testData, totalOutputs: r.totalOutputs, layers: r.layers, buffers: r.buffers };
      return [...r.files.map((f) => ({ path: f.path, data: f.content })), { path: 'layers.json', data: JSON.stringify(map, null, 2) + '\n' }];
    }
    case 'run':
      return [{ path: 'stdout.txt', data: o.result.stdout }];
  }
}

/** lower/final.onnx (the lowered graph), passes.json (what each pass did), bindings.json. */
function lowerArtifacts(r: LowerResult): Artifact[] {
  const json = (v: unknown) => JSON.stringify(v, null, 2) + '\n';
  const final = r.snapshots[r.snapshots.length - 1].graph;
  const platform = platformFor(r.platform);
  const passes = r.snapshots.map((s, i) => {
    const ops: Record<string, number> = {};
    for (const n of s.graph.nodes) ops[n.op] = (ops[n.op] ?? 0) + 1;
    const check = r.checks.find((c) => c.snapshot === i);
    return {
      index: i, pass: s.pass, doc: s.doc, changed: s.changed, ms: Math.round(s.ms * 10) / 10,
      nodes: s.graph.nodes.length, ops, removed: s.removed.length,
      created: Object.entries(s.origin).filter(([name, from]) => from.length !== 1 || from[0] !== name).length,
      check: check ? { errors: check.errors, total: check.total, ...(check.error ? { error: check.error } : {}) } : null,
    };
  });
  return [
    { path: 'final.onnx', data: writeOnnx(final) },
    { path: 'passes.json', data: json({ platform: r.platform, title: platform.title, checkInputs: r.checkInputs, inputTypes: r.inputTypes, passes }) },
    { path: 'bindings.json', data: json({ bindings: Object.values(r.bindings), failures: r.failures }) },
  ];
}

/** tile/plan.json (the whole memory plan: codegen's input) and tile/tiling.txt (the per-layer table). */
function tileArtifacts(p: TilePlan): Artifact[] {
  return [
    { path: 'plan.json', data: JSON.stringify(p, null, 1) + '\n' },
    { path: 'tiling.txt', data: tilingTable(p) },
  ];
}
