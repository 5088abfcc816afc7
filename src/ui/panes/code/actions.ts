// What the user does in the code pane, as store updates.
import { useStore } from '../../store';
import type { CodePaneState } from './state';
import { withEdit, withoutEdit } from './state';

function patch(p: Partial<CodePaneState> | ((s: CodePaneState) => Partial<CodePaneState>)): void {
  useStore.setState((s) => ({ code: { ...s.code, ...(typeof p === 'function' ? p(s.code) : p) } }));
}

export function showFile(path: string): void {
  if (useStore.getState().code.file !== path) patch({ file: path, line: null });
}

export function setEditing(editing: boolean): void {
  patch({ editing });
}

/** The editor's text of `path` changed (typing, undo, revert); `generated` is the codegen's text. */
export function recordEdit(path: string, text: string, generated: string): void {
  const edits = useStore.getState().code.edits;
  const next = withEdit(edits, path, text, generated);
  if (next !== edits) patch({ edits: next });
}

/** Back to the generated text; the editor follows the store. */
export function revert(path: string): void {
  patch((c) => ({ edits: withoutEdit(c.edits, path) }));
}

/** Opens or closes the assembly view. */
export function setAsm(asm: boolean): void {
  patch({ asm });
}

/** The function the assembly view shows (null: the default one). */
export function showFunction(fn: { name: string; addr: number } | null): void {
  const now = useStore.getState().code.asmFunction;
  if (now?.name !== fn?.name || now?.addr !== fn?.addr) patch({ asmFunction: fn ? { name: fn.name, addr: fn.addr } : null });
}

/** Opens the assembly view on the function `name` (the Run pane's links, the e2e). */
export function showAssembly(name: string): void {
  patch({ asm: true, asmFunction: { name, addr: -1 } });
}

let reveal: { file: string | null; line: number } | null = null;

/** Asks the editor to put the cursor on `line` of `file` (null: the file shown) when it next shows that file (a share link). */
export function requestReveal(file: string | null, line: number): void {
  reveal = { file, line };
}

/** The line asked for in `file`, once. */
export function takeReveal(file: string): number | null {
  if (!reveal || (reveal.file !== null && reveal.file !== file)) return null;
  const line = reveal.line;
  reveal = null;
  return line;
}
