// One error type for every stage. It is plain data (survives postMessage and JSON) so the
// worker, the CLI and the UI all show the same three things: what went wrong, where, and
// what the user can do about it.

export type ErrorCode =
  | 'bad-file'          // not an ONNX / npz file, truncated, corrupted
  | 'unsupported-op'    // an op the registry does not know
  | 'bad-graph'         // missing shapes, missing initializers, dangling tensors, cycles
  | 'dtype-mismatch'
  | 'shape-mismatch'
  | 'bad-inputs'        // inputs.npz / outputs.npz do not fit the graph
  | 'bad-config'        // config values out of range
  | 'not-implemented'   // something the playground does not do: a kernel codegen lacks, `dpg run --cc builtin`
  | 'cancelled'
  | 'limit'             // a size, time or cycle limit was hit
  | 'does-not-fit'      // a layer or the network does not fit a memory level
  | 'program-fault'     // the program broke a rule at run time: a kernel's store outside its layer's buffers (write guard)
  | 'internal';         // a bug: the message says so

export interface PlaygroundErrorData {
  code: ErrorCode;
  /** One sentence: what went wrong. */
  what: string;
  /** Where: a file, node, tensor or stage name, e.g. "node Conv_3 (Conv)" or "inputs.npz". */
  where?: string;
  /** What the user can do about it. */
  hint?: string;
}

export class PlaygroundError extends Error {
  readonly data: PlaygroundErrorData;
  constructor(data: PlaygroundErrorData) {
    super(formatError(data));
    this.name = 'PlaygroundError';
    this.data = data;
  }
}

export function fail(code: ErrorCode, what: string, where?: string, hint?: string): never {
  throw new PlaygroundError({ code, what, where, hint });
}

export function formatError(e: PlaygroundErrorData): string {
  let s = e.where ? `${e.where}: ${e.what}` : e.what;
  if (e.hint) s += ` (${e.hint})`;
  return s;
}

/** Turns anything thrown into error data; unknown exceptions are reported as internal bugs. */
export function toErrorData(err: unknown, stage?: string): PlaygroundErrorData {
  if (err instanceof PlaygroundError) return err.data;
  const msg = err instanceof Error ? err.message : String(err);
  return {
    code: 'internal',
    what: `internal error: ${msg}`,
    where: stage,
    hint: 'this is a bug in the playground; please report it with the model that caused it',
  };
}
