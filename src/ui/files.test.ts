import { describe, expect, it } from 'vitest';
import { MAX_FILE_BYTES, fromFolder, pickFiles, roleOf } from './files';
import { errorOf } from '../testing/error-of';

const f = (name: string, size = 10) => ({ name, size });


describe('roleOf', () => {
  it('sorts files by name', () => {
    expect(roleOf('network.ONNX')).toBe('model');
    expect(roleOf('inputs.npz')).toBe('inputs');
    expect(roleOf('input_0.npz')).toBe('inputs');
    expect(roleOf('Outputs.npz')).toBe('outputs');
    expect(roleOf('weights.npz')).toBeNull();
    expect(roleOf('notes.txt')).toBeNull();
  });
});

describe('pickFiles', () => {
  it('takes a model with its npz files', () => {
    const picked = pickFiles([f('outputs.npz'), f('network.onnx'), f('inputs.npz')]);
    expect(picked.model?.name).toBe('network.onnx');
    expect(picked.inputs?.name).toBe('inputs.npz');
    expect(picked.outputs?.name).toBe('outputs.npz');
  });
  it('names a file it does not know', () => {
    const e = errorOf(() => pickFiles([f('network.onnx'), f('notes.txt')]));
    expect(e.code).toBe('bad-file');
    expect(e.where).toBe('notes.txt');
    expect(e.what).toContain("'notes.txt'");
  });
  it('rejects two models', () => {
    expect(errorOf(() => pickFiles([f('a.onnx'), f('b.onnx')])).what).toContain("'a.onnx' and 'b.onnx'");
  });
  it('rejects files over the size limit, naming the file and the limit', () => {
    const e = errorOf(() => pickFiles([f('huge.onnx', MAX_FILE_BYTES + 1)]));
    expect(e.code).toBe('limit');
    expect(e.what).toContain('huge.onnx');
    expect(e.what).toContain('64 MB');
    expect(() => pickFiles([f('ok.onnx', MAX_FILE_BYTES)])).not.toThrow();
  });
  it('rejects an empty selection', () => {
    expect(errorOf(() => pickFiles([])).code).toBe('bad-file');
  });
});

describe('fromFolder', () => {
  it('keeps the files directly in the folder that have a role, and names the folder', () => {
    const files = ['Regular/network.onnx', 'Regular/inputs.npz', 'Regular/README.md', 'Regular/sub/other.onnx']
      .map((p) => ({ name: p.split('/').at(-1)!, webkitRelativePath: p }));
    const { files: kept, folder } = fromFolder(files);
    expect(folder).toBe('Regular');
    expect(kept.map((f) => f.name)).toEqual(['network.onnx', 'inputs.npz']);
  });
});
