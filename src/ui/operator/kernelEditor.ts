// The Operator pane's kernel editor: one Monaco editor on the kernel's C text (loaded lazily,
// the same Monaco build as the code pane's), a compile error marked at its line and column.
// The React side drives it; it reads no store.
import { monaco } from '../panes/code/monaco';

export interface KernelMarker { line: number; col: number; message: string }

export class KernelEditor {
  private readonly editor: monaco.editor.IStandaloneCodeEditor;
  private readonly model: monaco.editor.ITextModel;
  /** Set while the text is replaced from outside (the store), so it is not reported back as typing. */
  private syncing = false;

  constructor(host: HTMLElement, text: string, onText: (text: string) => void) {
    this.model = monaco.editor.createModel(text, 'c', monaco.Uri.from({ scheme: 'dpg-op', path: `/${Date.now()}/kernel.c` }));
    this.editor = monaco.editor.create(host, {
      model: this.model, automaticLayout: true, minimap: { enabled: false }, fontSize: 12, scrollBeyondLastLine: false,
      tabSize: 2, wordWrap: 'off', renderLineHighlight: 'line',
    });
    this.model.onDidChangeContent(() => { if (!this.syncing) onText(this.model.getValue()); });
  }

  /** Makes the text `text` if it is not (a new op opened, the skeleton), as one undoable edit. */
  setText(text: string): void {
    if (this.model.getValue() === text) return;
    this.syncing = true;
    try {
      this.model.pushEditOperations([], [{ range: this.model.getFullModelRange(), text }], () => null);
    } finally {
      this.syncing = false;
    }
  }

  /** Marks a compile error (or clears the mark). */
  setMarker(at: KernelMarker | null): void {
    const line = at ? Math.min(Math.max(1, at.line), this.model.getLineCount()) : 1;
    monaco.editor.setModelMarkers(this.model, 'dpg-kernel', at ? [{
      severity: monaco.MarkerSeverity.Error, message: at.message, source: 'dpg-cc',
      startLineNumber: line, startColumn: at.col, endLineNumber: line, endColumn: Math.max(at.col + 1, this.model.getLineMaxColumn(line)),
    }] : []);
  }

  /** The markers now, as line:col. */
  markers(): string[] {
    return monaco.editor.getModelMarkers({ owner: 'dpg-kernel', resource: this.model.uri }).map((m) => `${m.startLineNumber}:${m.startColumn}`);
  }

  /** Puts the cursor on `line` in the middle of the view. */
  reveal(line: number, col = 1): void {
    if (line < 1 || line > this.model.getLineCount()) return;
    this.editor.setPosition({ lineNumber: line, column: col });
    this.editor.revealLineInCenter(line, monaco.editor.ScrollType.Immediate);
    this.editor.focus();
  }

  cursorLine(): number {
    return this.editor.getPosition()?.lineNumber ?? 0;
  }

  dispose(): void {
    this.editor.dispose();
    this.model.dispose();
  }
}
