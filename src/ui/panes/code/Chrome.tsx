// The code pane around the editor: the file tabs (generated, then the library's), the Edit
// toggle with what editing means, the file's size and folds, and a line on the linked layer(s).
// Store actions only; no Monaco.
import { useState } from 'react';
import type { LayerCode } from '../../../compiler/codegen/types';
import { revert, setAsm, setEditing, showFile } from './actions';
import type { OpenStats } from './editor';
import type { CodeFile, CodePaneState } from './state';
import { isStale } from './state';
import { shownName } from '../../names';

export function fileSize(f: CodeFile): string {
  const n = f.content.length;
  return n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(2)} MB` : n >= 10240 ? `${(n / 1024).toFixed(0)} kB` : `${n} B`;
}

function Tab({ f, shown, edits }: { f: CodeFile; shown: string; edits: CodePaneState['edits'] }) {
  const name = f.kind === 'library' ? f.path.replace(/^(kernels|runtime)\//, '') : f.path;
  return (
    <button type="button" role="tab" aria-selected={f.path === shown}
      className={`code-tab${f.path === shown ? ' active' : ''}${edits[f.path] ? ' modified' : ''}${f.kind === 'library' ? ' library' : ''}`}
      data-testid={`code-tab-${f.path}`} title={`${f.kind === 'library' ? f.path : f.kind} · ${fileSize(f)}`} onClick={() => showFile(f.path)}>
      {shownName(name)}{edits[f.path] && <span className="code-dot" aria-label="modified"> ●</span>}
    </button>
  );
}

export function FileTabs({ files, shown, edits }: { files: readonly CodeFile[]; shown: string; edits: CodePaneState['edits'] }) {
  const generated = files.filter((f) => f.kind !== 'library');
  const library = files.filter((f) => f.kind === 'library');
  const [open, setOpen] = useState(false);
  // Open while a library file is shown or edited: its tab must be in sight.
  const needed = library.some((f) => f.path === shown || edits[f.path]);
  const expanded = open || needed;
  return (
    <div className="code-tabs" role="tablist" data-testid="code-tabs">
      {generated.map((f) => <Tab key={f.path} f={f} shown={shown} edits={edits} />)}
      {library.length > 0 && (
        <button type="button" className="code-tabs-sep" data-testid="code-library-tabs" aria-expanded={expanded} disabled={needed}
          title="The kernel library and the runtime the program is built with (editable like the generated files)"
          onClick={() => setOpen(!open)}>
          {expanded ? '▾' : '▸'} library ({library.length})
        </button>
      )}
      {expanded && library.map((f) => <Tab key={f.path} f={f} shown={shown} edits={edits} />)}
    </div>
  );
}

export function Tools({ file, code, stats }: { file: CodeFile; code: CodePaneState; stats: OpenStats | undefined }) {
  const edit = code.edits[file.path];
  const editedAny = Object.keys(code.edits).length > 0;
  return (
    <div className="code-tools">
      <button type="button" className={`button small${code.editing ? ' on' : ''}`} aria-pressed={code.editing}
        data-testid="code-edit" title="Let the editor change the generated code and the library (Run builds and runs your edits)"
        onClick={() => setEditing(!code.editing)}>
        {code.editing ? '✎ Editing' : '✎ Edit'}
      </button>
      <button type="button" className={`button small${code.asm ? ' on' : ''}`} aria-pressed={code.asm} data-testid="asm-toggle"
        title="The assembly of a function beside its C, linked line by line, with the cycles each instruction and line took in the last run"
        onClick={() => setAsm(!code.asm)}>
        Assembly
      </button>
      {edit && <span className="tag code-modified" data-testid="code-modified">modified</span>}
      {edit && (
        <button type="button" className="button small" data-testid="code-revert"
          title={`Put the generated ${file.path} back`} onClick={() => revert(file.path)}>Revert</button>
      )}
      {isStale(edit, file.content) && <span className="code-warn">compiled again since this edit: revert to see the new code</span>}
      {(code.editing || editedAny) && (
        <span className="code-edit-note" data-testid="code-edit-note">
          Edits are built and run by Compile &amp; run and by Run (in the Run pane); Revert puts a file back.
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
