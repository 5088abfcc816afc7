// Monaco, as the code pane uses it: the editor API, the C tokenizer and only the editor
// features the pane offers (folding, find, bracket matching, word completion, ...), not all of editor.main,
// so the lazily loaded chunk stays smaller. Its web worker is bundled by Vite (`?worker`):
// same-origin, as the page's COOP/COEP headers require, and it works offline.
import * as monaco from 'monaco-editor/editor/editor.api';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import 'monaco-editor/languages/definitions/cpp/register';
import 'monaco-editor/features/bracketMatching/register';
import 'monaco-editor/features/clipboard/register';
import 'monaco-editor/features/codicon/register';
import 'monaco-editor/features/contextmenu/register';
import 'monaco-editor/features/cursorUndo/register';
import 'monaco-editor/features/find/register';
import 'monaco-editor/features/folding/register';
import 'monaco-editor/features/gotoLine/register';
import 'monaco-editor/features/readOnlyMessage/register';
import 'monaco-editor/features/wordHighlighter/register';

// Word completion in Edit mode (the names of buffers, weights and kernels); its words come
// from the editor worker. (features/suggest registers only inline completions.)
import 'monaco-editor/editor/contrib/suggest/browser/suggestController';

self.MonacoEnvironment = { getWorker: () => new EditorWorker() };

export { monaco };
