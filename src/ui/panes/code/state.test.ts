import { describe, expect, it } from 'vitest';
import { isRunStale } from '../../store';
import { compileErrorAt, editTexts, INITIAL_CODE_STATE, isLibraryPath, isStale, shownFile, withEdit, withoutEdit } from './state';

describe('code pane edits', () => {
  it('records an edit with the generated text it started from, and drops it when the text is back', () => {
    const e1 = withEdit({}, 'Network.c', 'int x;', 'int y;');
    expect(e1).toEqual({ 'Network.c': { text: 'int x;', base: 'int y;' } });
    const e2 = withEdit(e1, 'Network.c', 'int z;', 'int y;');
    expect(e2['Network.c']).toEqual({ text: 'int z;', base: 'int y;' });
    expect(withEdit(e2, 'Network.c', 'int y;', 'int y;')).toEqual({});
    // Typing the generated text into an unedited file changes nothing (same object).
    expect(withEdit(e1, 'main.c', 'a', 'a')).toBe(e1);
    expect(withoutEdit(e2, 'Network.c')).toEqual({});
    expect(withoutEdit(e2, 'main.c')).toEqual(e2);
  });

  it('an edit is stale once codegen produced other text for the file', () => {
    const e = withEdit({}, 'main.c', 'edited', 'v1')['main.c'];
    expect(isStale(e, 'v1')).toBe(false);
    expect(isStale(e, 'v2')).toBe(true);
    expect(isStale(undefined, 'v2')).toBe(false);
    // After a recompile the edit keeps its first base; text equal to the new generated one is no edit.
    const after = withEdit({ 'main.c': e! }, 'main.c', 'edited again', 'v2');
    expect(after['main.c']!.base).toBe('v1');
    expect(withEdit(after, 'main.c', 'v2', 'v2')).toEqual({});
  });
});

describe('the file shown', () => {
  const files = [
    { path: 'Network.h', kind: 'network' }, { path: 'Network.c', kind: 'network' }, { path: 'main.c', kind: 'harness' },
  ];
  it('is the chosen one, else Network.c, else the first', () => {
    expect(shownFile(files, 'main.c')!.path).toBe('main.c');
    expect(shownFile(files, null)!.path).toBe('Network.c');
    expect(shownFile(files, 'gone.c')!.path).toBe('Network.c');
    expect(shownFile(files.filter((f) => f.path !== 'Network.c'), null)!.path).toBe('Network.h');
    expect(shownFile([], null)).toBeUndefined();
  });
});

describe('edits in runs', () => {
  it('are sent as path -> text; the run is stale once they differ from what it was built with', () => {
    const edits = withEdit(withEdit({}, 'Network.c', 'a', 'b'), 'kernels/gemm.c', 'x', 'y');
    expect(editTexts(edits)).toEqual({ 'Network.c': 'a', 'kernels/gemm.c': 'x' });
    const code = { ...INITIAL_CODE_STATE, editing: true, edits };
    expect(isRunStale({ runEdits: null, code })).toBe(false);
    expect(isRunStale({ runEdits: editTexts(edits), code })).toBe(false);
    expect(isRunStale({ runEdits: { 'Network.c': 'a' }, code })).toBe(true);
    expect(isRunStale({ runEdits: { 'Network.c': 'a', 'kernels/gemm.c': 'z' }, code })).toBe(true);
    expect(isRunStale({ runEdits: editTexts(edits), code: { ...code, edits: {} } })).toBe(true);
    expect([isLibraryPath('kernels/gemm.c'), isLibraryPath('runtime/siracusa/crt0.S'), isLibraryPath('Network.c')]).toEqual([true, true, false]);
  });

  it('a compile error (file:line:col) is found in the run stage\'s error', () => {
    expect(compileErrorAt({ code: 'bad-file', where: 'Network.c:12:5', what: "expected ';'" }))
      .toEqual({ file: 'Network.c', line: 12, col: 5, message: "expected ';'" });
    expect(compileErrorAt({ code: 'bad-file', where: 'runtime/siracusa/crt0.S:3:1', what: 'x' })?.file).toBe('runtime/siracusa/crt0.S');
    expect(compileErrorAt({ code: 'internal', where: 'run: core 8 in f (Network.c:3)', what: 'trap' })).toBeNull();
    expect(compileErrorAt({ code: 'bad-file', where: 'inputs.npz', what: 'x' })).toBeNull();
    expect(compileErrorAt(undefined)).toBeNull();
  });
});
