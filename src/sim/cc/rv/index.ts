// The RV32 back end: IR module -> GNU assembly text for rv32imc + CORE-V, ilp32. Per function:
// packed vector ops expanded for plain RV32 (vectors.ts), instruction selection (isel.ts),
// register allocation (regalloc.ts), frame layout (frame.ts), text (emit.ts); then the data.
// The optional optimisations among these are named in passes.ts (RV_PASSES).
import { CcError } from '../error';
import type { IrFunction, IrModule } from '../ir';
import { AsmWriter } from './emit';
import { layoutFrame } from './frame';
import { selectFunction } from './isel';
import type { MFunction } from './mir';
import { chainBlocks, rotateLoops, threadJumps } from './layout';
import { selectMinMax } from './selects';
import { RV_PASSES } from './passes';
import { checkPassNames } from '../pass-info';
import { allocateRegisters } from './regalloc';
import { scheduleLoads } from './schedule';
import { expandVectors } from './vectors';

export interface BackendOptions {
  /** The source file (for .file and the line table). */
  file: string;
  /** CORE-V selections (immediate branches, sle); the cluster's cores have them. */
  xpulp: boolean;
  noBuiltin?: boolean;
  /** Optimisation level: the optional optimisations (RV_PASSES) run from their level up (default 2). */
  level?: 0 | 1 | 2;
  /** RV_PASSES names not to run; an unknown name is an error naming the known ones. */
  disable?: readonly string[];
}

export interface GeneratedAsm {
  text: string;
  /** Initialiser bytes `.incbin "name"` reads (large constants do not go through text). */
  blobs: Map<string, Uint8Array>;
}

/** The RV_PASSES names that do not run: those disabled, and those above the level. */
export function disabledPasses(opts: Pick<BackendOptions, 'level' | 'disable'>): Set<string> {
  checkPassNames(opts.disable ?? [], RV_PASSES);
  const level = opts.level ?? 2;
  return new Set([...(opts.disable ?? []), ...RV_PASSES.filter((p) => p.level > level).map((p) => p.name)]);
}

export function generateAsm(module: IrModule, opts: BackendOptions): GeneratedAsm {
  const w = new AsmWriter();
  for (const f of module.functions) w.fn(compileFunction(f, opts));
  for (const g of module.globals) w.global(g);
  return { text: w.text(), blobs: w.blobs };
}

/** One function through selection, allocation and frame layout (again with t6 kept free when a far stack store needs it). */
export function compileFunction(ir: IrFunction, opts: BackendOptions): MFunction {
  const disabled = disabledPasses(opts);
  const f = !opts.xpulp ? expandVectors(ir) : disabled.has('select-min-max') ? ir : selectMinMax(ir);
  const thread = !disabled.has('jump-threading');
  try {
    for (const reserve of [false, true]) {
      const mf = selectFunction(f, { xpulp: opts.xpulp, disabled });
      if (reserve) mf.reserved.push(31);
      if (thread) threadJumps(mf);
      if (!disabled.has('rotate-latch')) rotateLoops(mf);
      const schedule = opts.xpulp && !disabled.has('load-use-schedule');
      if (schedule) scheduleLoads(mf);
      const { usedCalleeSaved } = allocateRegisters(mf);
      if (schedule) scheduleLoads(mf); // again: the reloads allocation added
      if (thread) threadJumps(mf); // edge blocks whose copies allocation removed
      if (!disabled.has('block-chains')) chainBlocks(mf);
      const { needsScratch } = layoutFrame(mf, usedCalleeSaved);
      if (!needsScratch) return mf;
    }
    throw new Error('a far stack store found no scratch register');
  } catch (e) {
    if (e instanceof CcError) throw e;
    const i = f.loc.lastIndexOf(':');
    throw new CcError({ file: f.loc.slice(0, i), line: Number(f.loc.slice(i + 1)) || 0, col: 1 },
      `internal error of the back end in '${f.name}': ${(e as Error).message}`);
  }
}
