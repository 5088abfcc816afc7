// The code pane around the editor: the file tabs, the Edit toggle with what editing means,
// the file's size and folds, and a line on the linked layer(s). Store actions only; no Monaco.
import type { GeneratedFile, LayerCode } from '../../../compiler/codegen/types';
import { revert, setEditing, showFile } from './actions';
import type { OpenStats } from './editor';
import type { CodePaneState } from './state';
import { isStale } from './state';

export function fileSize(f: GeneratedFile): string {
  const n = f.content.length;
  return n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(2)} MB` : n >= 10240 ? `${(n / 1024).toFixed(0)} kB` : `${n} B`;
}

export function FileTabs({ files, shown, edits }: { files: readonly GeneratedFile[]; shown: string; edits: CodePaneState['edits'] }) {
  return (
    <div className="code-tabs" role="tablist" data-testid="code-tabs">
      {files.map((f) => (
        <button key={f.path} type="button" role="tab" aria-selected={f.path === shown}
          className={`code-tab${f.path === shown ? ' active' : ''}${edits[f.path] ? ' modified' : ''}`}
          data-testid={`code-tab-${f.path}`} title={`${f.kind} · ${fileSize(f)}`} onClick={() => showFile(f.path)}>
          {f.path}{edits[f.path] && <span className="code-dot" aria-label="modified"> ●</span>}
        </button>
      ))}
    </div>
  );
}

export function Tools({ file, code, stats }: { file: GeneratedFile; code: CodePaneState; stats: OpenStats | undefined }) {
  const edit = code.edits[file.path];
  const editedAny = Object.keys(code.edits).length > 0;
  return (
    <div className="code-tools">
      <button type="button" className={`button small${code.editing ? ' on' : ''}`} aria-pressed={code.editing}
        data-testid="code-edit" title="Let the editor change the generated code (the changes stay in this pane)"
        onClick={() => setEditing(!code.editing)}>
        {code.editing ? '✎ Editing' : '✎ Edit'}
      </button>
      {edit && <span className="tag code-modified" data-testid="code-modified">modified</span>}
      {edit && (
        <button type="button" className="button small" data-testid="code-revert"
          title={`Put the generated ${file.path} back`} onClick={() => revert(file.path)}>Revert</button>
      )}
      {isStale(edit, file.content) && <span className="code-warn">compiled again since this edit: revert to see the new code</span>}
      {(code.editing || editedAny) && (
        <span className="code-edit-note" data-testid="code-edit-note">
          Edits stay in this pane: they do not feed the simulator yet, which runs the generated code.
        </span>
      )}
      <span className="code-info" data-testid="code-file-info">
        {stats ? `${stats.lines} lines · ${fileSize(file)}${stats.folded ? ` · ${stats.folded} constant arrays folded (${stats.hidden} lines)` : ''}` : fileSize(file)}
      </span>
    </div>
  );
}

/**
 * The layers highlighted in the file shown; else where the selection's code is, that it has
 * none, or how to link.
 */
export function LayerLine({ layers, selected, elsewhere }: {
  layers: readonly LayerCode[]; selected: readonly string[]; elsewhere: string | null;
}) {
  return (
    <div className="code-layer" data-testid="code-layer">
      {layers.length > 0 ? layers.map((l) => (
        <span key={l.node}>
          <code>{l.node}</code>: {l.op} → <code>{l.kernel}</code> on {l.engine}
          {l.calls.length > 0 && <> calls <code>{l.calls.join(', ')}</code></>}
        </span>
      ))
        : elsewhere ? (
          <span>The code of <code>{selected.join(', ')}</code> is in{' '}
            <button type="button" className="link" onClick={() => showFile(elsewhere)}>{elsewhere}</button>.
          </span>
        )
        : selected.length > 0 ? <span>The selected node has no code of its own.</span>
        : <span>Click a node in the graph, or put the cursor in a layer&apos;s code, to link them.</span>}
    </div>
  );
}
