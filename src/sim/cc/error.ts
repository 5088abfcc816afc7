// Diagnostics of the C toolchain: a compile error is a PlaygroundError whose `where` is
// file:line:col, so the worker, the CLI and the code pane's markers all read one shape.
import { PlaygroundError } from '../../common/errors';
import type { Token } from './token';

export interface SourcePos {
  file: string;
  line: number;
  col: number;
}

export class CcError extends PlaygroundError {
  readonly pos: SourcePos;
  /** The message alone, without the position. */
  readonly msg: string;
  constructor(pos: SourcePos, msg: string, hint?: string) {
    super({ code: 'bad-file', what: msg, where: `${pos.file}:${pos.line}:${pos.col}`, hint });
    this.name = 'CcError';
    this.pos = { file: pos.file, line: pos.line, col: pos.col };
    this.msg = msg;
  }
}

/** A warning (#warning, a redefined macro): it does not stop the compile. */
export interface CcWarning {
  pos: SourcePos;
  msg: string;
}

/** Throws a CcError at a token: for a token from a macro expansion, at the macro's use. */
export function errorAt(tok: Token, msg: string, hint?: string): never {
  throw new CcError(posOf(tok), msg, hint);
}

export function posOf(tok: Token): SourcePos {
  return tok.origin ?? tok;
}
