// The RV32 back end: IR module -> GNU assembly text for rv32imc + CORE-V, ilp32.
import type { IrModule } from '../ir';

export interface BackendOptions {
  /** The source file (for .file and the line table). */
  file: string;
  /** CORE-V selections. */
  xpulp: boolean;
  noBuiltin?: boolean;
}

export interface GeneratedAsm {
  text: string;
  /** Initialiser bytes `.incbin "name"` reads (large constants do not go through text). */
  blobs: Map<string, Uint8Array>;
}

export function generateAsm(module: IrModule, opts: BackendOptions): GeneratedAsm {
  void module; void opts;
  throw new Error('the RV32 back end is being written');
}
