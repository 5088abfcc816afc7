// Helpers for the preprocessor's tests: preprocess a snippet (plus other in-memory files) and
// read the result as space-separated token texts.
import { filesFrom } from './fs';
import { preprocess, type PreprocessOptions, type PreprocessResult } from './preprocess';

export type SnippetOptions = Partial<Omit<PreprocessOptions, 'files'>> & { files?: Record<string, string> };

/** Preprocesses `src` as main.c with `files` beside it. */
export function run(src: string, o: SnippetOptions = {}): PreprocessResult {
  return preprocess('main.c', { ...o, files: filesFrom({ 'main.c': src, ...o.files }) });
}

/** The expanded tokens' texts joined by single spaces (pragmas as `#pragma <text>`). */
export function pp(src: string, o: SnippetOptions = {}): string {
  return run(src, o).tokens.filter((t) => t.kind !== 'eof').map((t) => (t.kind === 'pragma' ? `#pragma ${t.text}` : t.text)).join(' ');
}

/** The message of the error preprocessing `src` throws (file:line:col: message). */
export function ppError(src: string, o: SnippetOptions = {}): string {
  try {
    run(src, o);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected a preprocessing error');
}
