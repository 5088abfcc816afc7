// The IR optimiser: passes over an IrModule that keep its meaning (interp.ts is the judge).
import type { IrModule } from '../ir';

export interface OptOptions {
  /** 1: the cheap passes; 2: all of them. */
  level: 1 | 2;
  /** -fno-builtin: loops that look like memset / memcpy stay loops. */
  noBuiltin?: boolean;
}

/** Runs the optimiser's passes, in order, on a module; returns the optimised module. */
export function optimize(module: IrModule, opts: OptOptions): IrModule {
  void opts;
  return module;
}
