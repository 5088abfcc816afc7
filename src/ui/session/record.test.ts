// The checks on a session read back from storage, and the record the store's state becomes.
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../compiler/config';
import type { BuiltinModel } from '../builtins';
import { INITIAL_CODE_STATE } from '../panes/code/state';
import type { LoadedModel } from '../store';
import { StorageError, readSession } from './db';
import type { SessionRecord, StoredFile } from './record';
import { BadRecord, LIMITS, SESSION_VERSION, checkBlob, checkSession } from './record';
import { keptFiles, restoredCode, sessionRecord, storedModel } from './snapshot';

const KEY = `sha256:${'ab'.repeat(32)}`;
const ref: StoredFile = { key: KEY, name: 'network.onnx', size: 3 };

function valid(): SessionRecord {
  return {
    version: SESSION_VERSION, id: 'tab-1', savedAt: 1_700_000_000_000,
    model: { kind: 'files', model: ref, inputs: { key: 'id:0123456789abcdef', name: 'inputs.npz', size: 10 } },
    config: { ...DEFAULT_CONFIG, cores: 4, l1: 32_000 },
    code: { file: 'Network.c', editing: true, asm: false, edits: { 'Network.c': { text: 'int x;', base: 'int y;' } } },
    programFiles: ['Network.c', 'Network.h'],
    baseline: { cycles: 1234, layers: { conv1: 1000, relu: 234 }, config: DEFAULT_CONFIG, model: 'network.onnx' },
  };
}

/** The record with one field replaced (a path of keys). */
function withField(path: (string | number)[], value: unknown): unknown {
  const r = structuredClone(valid()) as unknown as Record<string, unknown>;
  let o = r;
  for (const k of path.slice(0, -1)) o = o[k] as Record<string, unknown>;
  o[path.at(-1)!] = value;
  return r;
}

const badField = (raw: unknown): string => {
  try {
    checkSession(raw);
  } catch (e) {
    if (e instanceof BadRecord) return e.field;
    throw e;
  }
  throw new Error('accepted');
};

describe('checkSession', () => {
  it('accepts a valid record and keeps only the known fields', () => {
    expect(checkSession(valid())).toEqual(valid());
    const extra = { ...valid(), evil: '<script>', config: { ...valid().config, extra: 1 } };
    expect(checkSession(extra)).toEqual(valid());
    const builtin = { ...valid(), model: { kind: 'builtin', id: 'adder' }, baseline: null, programFiles: null };
    expect(checkSession(builtin).model).toEqual({ kind: 'builtin', id: 'adder' });
  });

  it('refuses a record of a newer version with a clear message, and an unknown version', () => {
    expect(() => checkSession({ ...valid(), version: SESSION_VERSION + 1 })).toThrow(/saved by a newer version of the playground/);
    expect(badField({ ...valid(), version: '1' })).toBe('session.version');
    expect(badField({ ...valid(), version: 0 })).toBe('session.version');
    expect(badField(null)).toBe('session');
    expect(badField([valid()])).toBe('session');
    expect(badField('session')).toBe('session');
  });

  it('names the first field of a wrong type', () => {
    expect(badField(withField(['id'], 7))).toBe('session.id');
    expect(badField(withField(['savedAt'], -1))).toBe('session.savedAt');
    expect(badField(withField(['model', 'kind'], 'url'))).toBe('session.model.kind');
    expect(badField(withField(['model', 'model', 'key'], 'sha256:xyz'))).toBe('session.model.model.key');
    expect(badField(withField(['model', 'model', 'size'], 2 ** 40))).toBe('session.model.model.size');
    expect(badField(withField(['model', 'inputs'], 'inputs.npz'))).toBe('session.model.inputs');
    expect(badField(withField(['config', 'tiled'], 'yes'))).toBe('session.config.tiled');
    expect(badField(withField(['config', 'platform'], 'x86'))).toBe('session.config.platform');
    expect(badField(withField(['config', 'profileTiling'], 'L1'))).toBe('session.config.profileTiling');
    expect(badField(withField(['code', 'edits', 'Network.c', 'text'], 42))).toBe('session.code.edits["Network.c"].text');
    expect(badField(withField(['code', 'edits'], ['Network.c']))).toBe('session.code.edits');
    expect(badField(withField(['code', 'file'], undefined))).toBe('session.code.file');
    expect(badField(withField(['programFiles', 1], null))).toBe('session.programFiles[1]');
    expect(badField(withField(['baseline', 'cycles'], Number.NaN))).toBe('session.baseline.cycles');
    expect(badField(withField(['baseline', 'cycles'], 0))).toBe('session.baseline.cycles');
    expect(badField(withField(['baseline', 'layers', 'conv1'], Infinity))).toBe('session.baseline.layers["conv1"]');
  });

  it('applies the compiler\'s own checks to the configurations', () => {
    expect(badField(withField(['config', 'cores'], 0))).toBe('session.config.cores');
    expect(() => checkSession(withField(['config', 'l1'], 10 ** 9))).toThrow(/session\.config\.l1/);
    // The weight memory belongs to N-EUREKA only.
    expect(badField(withField(['config', 'neurekaWmem'], true))).toBe('session.config.neurekaWmem');
    expect(badField(withField(['baseline', 'config', 'cores'], 9))).toBe('session.baseline.config.cores');
  });

  it('bounds what a record may hold, and keeps odd keys as plain keys', () => {
    const many = Object.fromEntries(Array.from({ length: LIMITS.edits + 1 }, (_, i) => [`f${i}.c`, { text: 'a', base: 'b' }]));
    expect(() => checkSession(withField(['code', 'edits'], many))).toThrow(/more than 1000 entries/);
    const big = 'x'.repeat(LIMITS.editChars / 2 + 1);
    expect(() => checkSession(withField(['code', 'edits'], { 'a.c': { text: big, base: big } }))).toThrow(/more than \d+ characters/);
    expect(badField(withField(['model', 'model', 'name'], 'n'.repeat(LIMITS.name + 1)))).toBe('session.model.model.name');
    const odd = JSON.parse('{"__proto__": {"text": "p", "base": "q"}, "constructor": {"text": "c", "base": "d"}}') as unknown;
    const r = checkSession(withField(['code', 'edits'], odd));
    expect(Object.getPrototypeOf(r.code.edits)).toBe(Object.prototype);
    expect(Object.keys(r.code.edits).sort()).toEqual(['__proto__', 'constructor']);
    expect(({} as Record<string, unknown>).text).toBeUndefined();
  });
});

describe('checkBlob', () => {
  it('returns the bytes of the file a session refers to, of its size', () => {
    const bytes = new Uint8Array([1, 2, 3]);
    expect(checkBlob({ key: KEY, bytes }, ref)).toBe(bytes);
    expect(() => checkBlob(undefined, ref)).toThrow(/network\.onnx: is no longer in the browser's storage/);
    expect(() => checkBlob({ key: KEY, bytes: new Uint8Array(2) }, ref)).toThrow(/has 2 bytes, not the 3/);
    expect(() => checkBlob({ key: KEY, bytes: [1, 2, 3] }, ref)).toThrow(/has no bytes/);
    expect(() => checkBlob({ key: 'id:other-key-1', bytes }, ref)).toThrow(/another key/);
  });
});

const ADDER: BuiltinModel = {
  id: 'adder', name: 'Adder', description: '',
  files: { model: 'adder/network.onnx', inputs: 'adder/inputs.npz', outputs: 'adder/outputs.npz' },
};
const bytes = (n: number) => new Uint8Array(n).fill(n);

describe('the stored form of the state', () => {
  it('keeps a built-in model by id, with only the npz files opened for it', () => {
    const own: LoadedModel = {
      name: 'adder/network.onnx', bytes: bytes(5), builtinId: 'adder',
      inputs: { name: 'adder/inputs.npz', bytes: bytes(2) }, outputs: { name: 'adder/outputs.npz', bytes: bytes(3) },
    };
    expect(keptFiles(own, ADDER)).toEqual({});
    expect(storedModel(own, ADDER, {})).toEqual({ kind: 'builtin', id: 'adder' });
    const opened = { ...own, inputs: { name: 'inputs.npz', bytes: bytes(4) } };
    expect(keptFiles(opened, ADDER)).toEqual({ inputs: opened.inputs });
    const inputs = { key: 'id:abcdefgh', name: 'inputs.npz', size: 4 };
    expect(storedModel(opened, ADDER, { inputs })).toEqual({ kind: 'builtin', id: 'adder', inputs });
  });

  it('keeps every file of an opened model, and of a built-in one no longer listed', () => {
    const m: LoadedModel = { name: 'Add/network.onnx', bytes: bytes(5), outputs: { name: 'outputs.npz', bytes: bytes(3) } };
    expect(keptFiles(m, undefined)).toEqual({ model: { name: m.name, bytes: m.bytes }, outputs: m.outputs });
    expect(() => storedModel(m, undefined, {})).toThrow(/no stored file/);
    const gone = { ...m, builtinId: 'removed' };
    expect(Object.keys(keptFiles(gone, undefined))).toEqual(['model', 'outputs']);
  });

  it('makes a record that passes its own check, and restores the code pane from it', () => {
    const code = { ...INITIAL_CODE_STATE, file: 'Network.c', editing: true, asmFunction: { name: 'f', addr: 4 },
      edits: { 'kernels/gemm.c': { text: 'a', base: 'b' } } };
    const r = sessionRecord('tab', 5, { config: DEFAULT_CONFIG, code, runBaseline: null }, { kind: 'builtin', id: 'adder' }, null);
    expect(checkSession(structuredClone(r))).toEqual(r);
    expect(restoredCode(r)).toEqual({ ...code, asmFunction: null });
  });
});

describe('the session storage without IndexedDB', () => {
  it('fails with a storage error saying so, not a crash', async () => {
    const err = await readSession('tab').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StorageError);
    expect((err as StorageError).problem).toBe('unavailable');
    expect((err as Error).message).toMatch(/no IndexedDB/);
  });
});
