// The lower stage: run the platform's pipeline listing (a snapshot per pass), type the graph
// inputs, bind every node of the final graph to a kernel, and check with the reference
// interpreter that no pass changed what the network computes.
import type { PlaygroundErrorData } from '../../common/errors';
import type { Config } from '../config';
import type { Graph } from '../ir/graph';
import type { TensorValue } from '../interpret/interpret';
import { bindGraph } from '../bind/bind';
import { runPasses } from '../passes/manager';
import { platformFor } from '../platforms';
import { inferTypes } from '../shapes/infer';
import { inputPositions, randomInputs, semanticChecks } from './check';
import { kernelRanges, typeInputsFor } from './input-typing';
import type { LowerResult, SemanticCheck } from './types';

export interface LowerOptions {
  /** inputs.npz bound to the parsed graph (by position): used for input typing and the check. */
  inputs?: readonly TensorValue[];
  /** Progress, 0..1, with what is being done. */
  progress?: (fraction: number, message: string) => void;
  /** Which snapshots the semantic check runs on: every changed one (default), the last, or none. */
  check?: 'changed' | 'final' | 'none';
  /** Seed of the random check inputs when no inputs are given. */
  seed?: number;
}

/** Share of the progress bar each phase takes. */
const PASSES = 0.4, CHECKS = 0.55;

export function lowerGraph(parsed: Graph, config: Config, opts: LowerOptions = {}): LowerResult {
  const graph = Object.keys(parsed.types).length > 0 ? parsed : inferTypes(parsed);
  const platform = platformFor(config.platform);
  const progress = opts.progress ?? (() => undefined);
  const snapshots = runPasses(graph, platform.passes,
    (done, total, name) => progress((done / total) * PASSES, `pass ${done + 1}/${total}: ${name}`), { inputs: opts.inputs });
  const final = snapshots[snapshots.length - 1].graph;
  const positions = inputPositions(snapshots);
  const inputTypes = typeInputsFor(graph, final, positions[positions.length - 1], platform, opts.inputs);

  progress(PASSES, 'binding kernels');
  const inputNotes = Object.fromEntries(inputTypes.filter((t) => t.offset !== 0).map((t) =>
    [t.name, `${t.name} holds ${t.dtype} data shifted by ${t.offset} to ${t.kernelDtype}; the kernel adds ${-t.offset} back`]));
  const { bindings, failures } = bindGraph(final, platform, {
    inputRanges: kernelRanges(inputTypes), cores: config.cores, wmem: config.neurekaWmem, inputNotes,
  });

  const mode = opts.check ?? 'changed';
  const checkInputs = opts.inputs ? [...opts.inputs] : randomInputs(snapshots[0], typeInputsFor(graph, graph, graph.inputs.map((_, i) => i), platform), opts.seed);
  const onCheck = (done: number, total: number, pass: string) =>
    progress(PASSES + CHECKS * (done / Math.max(1, total)), `checking '${pass}' (${done + 1}/${total})`);
  const last = snapshots.length - 1;
  let checks: SemanticCheck[] = [];
  let checkError: string | undefined;
  try {
    if (mode === 'changed') checks = semanticChecks(snapshots, checkInputs, { onCheck });
    else if (mode === 'final' && last > 0) {
      // The final graph alone, straight against the input graph (input positions carried over).
      const direct = [snapshots[0], { ...snapshots[last], changed: true }];
      checks = semanticChecks(direct, checkInputs, { onCheck, positions: [positions[0], positions[last]] })
        .map((c) => ({ ...c, snapshot: last }));
    }
  } catch (e) {
    checkError = `the input graph does not run on the ${opts.inputs ? 'inputs.npz values' : 'random check inputs'}: ${(e as Error).message}`;
  }
  return {
    platform: platform.name, snapshots, bindings, failures, checks,
    checkInputs: opts.inputs ? 'inputs.npz' : 'random', inputTypes, ...(checkError ? { checkError } : {}),
  };
}

/**
 * Why a lowering cannot go on to tiling, as an error naming the node or pass: a node without a
 * kernel ('unsupported-op'), or a pass that changed the network's outputs ('internal': a bug).
 */
export function lowerFailure(r: LowerResult): PlaygroundErrorData | undefined {
  const f = r.failures[0];
  if (f) {
    const more = r.failures.length > 1 ? ` (and ${r.failures.length - 1} more node${r.failures.length > 2 ? 's' : ''})` : '';
    return {
      code: 'unsupported-op', what: `${f.reason}${more}`, where: `node "${f.node}" (${f.op})`,
      hint: 'the graph pane shows the lowered graph; another platform may have a kernel for it',
    };
  }
  const bad = r.checks.find((c) => c.errors > 0 || c.error);
  if (bad) {
    const pass = r.snapshots[bad.snapshot].pass;
    return {
      code: 'internal', where: `pass ${pass}`,
      what: bad.error ? `the graph after pass '${pass}' does not run: ${bad.error}`
        : `pass '${pass}' changed the network's outputs: ${bad.errors} of ${bad.total} elements differ${bad.firstDifferent ? ` (first at tensor '${bad.firstDifferent}')` : ''}`,
      hint: 'this is a bug in the lowering; please report it with the model',
    };
  }
  return undefined;
}
