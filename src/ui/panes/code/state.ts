// The code pane's state, kept in the app store beside the graph pane's: the file shown, the
// Edit toggle and the user's local edits of generated and kernel library files. Compile & run
// and Run build the edits instead of the files they change. Plain data, and the pure rules for
// changing it.

import type { FileKind } from '../../../compiler/codegen/types';

/** A file of the code pane: a generated one, or one of the kernel library and runtime the program is built with. */
export interface CodeFile {
  path: string;
  content: string;
  kind: FileKind | 'library';
}

/** A file the user edited: its text now, and the generated text the edit started from. */
export interface FileEdit {
  text: string;
  base: string;
}

export interface CodePaneState {
  /** The file shown, by path; null shows the first generated file. */
  file: string | null;
  /** Whether the editor accepts typing (read-only otherwise). */
  editing: boolean;
  /** Local edits by path. */
  edits: Record<string, FileEdit>;
  /** The cursor's line in the file shown (a share link carries it and reopens the file there). */
  line: number | null;
  /** Whether the assembly view is open beside the editor. */
  asm: boolean;
  /** The function it shows, when the user picked one or the cursor led to one (by name; the address tells same-named static functions apart); null: the default. */
  asmFunction: { name: string; addr: number } | null;
}

export const INITIAL_CODE_STATE: CodePaneState = { file: null, editing: false, edits: {}, asm: false, asmFunction: null, line: null };

/**
 * The edits after the user's text for `path` became `text`. Text equal to what codegen
 * generated now is no edit; an edit keeps the generated text it started from.
 */
export function withEdit(edits: Record<string, FileEdit>, path: string, text: string, generated: string): Record<string, FileEdit> {
  if (text === generated) return path in edits ? withoutEdit(edits, path) : edits;
  return { ...edits, [path]: { text, base: edits[path]?.base ?? generated } };
}

/** The edits without `path`: its generated text is back. */
export function withoutEdit(edits: Record<string, FileEdit>, path: string): Record<string, FileEdit> {
  const { [path]: _dropped, ...rest } = edits;
  return rest;
}

/** The edited files' text, by path: what the run stage builds instead of the generated or library file. */
export function editTexts(edits: Record<string, FileEdit>): Record<string, string> {
  return Object.fromEntries(Object.entries(edits).map(([p, e]) => [p, e.text]));
}

/** Paths of the kernel library and the runtime (the code pane's library tabs), as the run stage names them. */
export const isLibraryPath = (path: string) => /^(kernels|runtime)\//.test(path);

/** Where a compile error is: the run stage's error whose `where` is file:line:col (CcError). */
export interface CompileErrorAt { file: string; line: number; col: number; message: string }

export function compileErrorAt(e: { code: string; where?: string; what: string } | undefined): CompileErrorAt | null {
  const m = e && e.code === 'bad-file' ? /^(.+):(\d+):(\d+)$/.exec(e.where ?? '') : null;
  return m ? { file: m[1]!, line: Number(m[2]), col: Number(m[3]), message: e!.what } : null;
}

/** An edit made on other generated text than the file's now (the model was compiled again since). */
export const isStale = (edit: FileEdit | undefined, generated: string | undefined) =>
  edit !== undefined && generated !== undefined && edit.base !== generated;

/** The file to show: the chosen one if the result has it, else the network's C file, else the first. */
export function shownFile<F extends { path: string; kind: string }>(files: readonly F[], chosen: string | null): F | undefined {
  return files.find((f) => f.path === chosen)
    ?? files.find((f) => f.kind === 'network' && f.path.endsWith('.c')) ?? files[0];
}
