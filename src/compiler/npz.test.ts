// .npy / .npz: every shared file reads, writeNpz -> readNpz round trips, Fortran-order and
// big-endian arrays read correctly, and bad files end in a PlaygroundError naming the file.
import { zipSync } from 'fflate';
import { describe, expect, test } from 'vitest';
import { PlaygroundError } from '../common/errors';
import type { ErrorCode } from '../common/errors';
import { findTestDirs, loadTestCase } from '../testing/corpus';
import { mutateBytes } from './fuzz/mutate';
import { mulberry32 } from './fuzz/prng';
import { DTYPES, numel } from './ir/dtype';
import type { DType } from './ir/graph';
import type { NpyArray } from './npz';
import { MAX_NPZ_BYTES, readNpy, readNpz, writeNpy, writeNpz } from './npz';

const ROOT = new URL('../../../shared/deeploy-tests/', import.meta.url);
const CASES = findTestDirs(ROOT).map((d) => loadTestCase(d, ROOT));

function expectError(fn: () => unknown, code: ErrorCode, ...mentions: (string | RegExp)[]) {
  let err: unknown;
  try {
    fn();
  } catch (e) {
    err = e;
  }
  expect(err, 'expected a PlaygroundError').toBeInstanceOf(PlaygroundError);
  expect((err as PlaygroundError).data.code, (err as PlaygroundError).message).toBe(code);
  for (const m of mentions) expect((err as PlaygroundError).message).toMatch(m);
}

/** A .npy file with a hand-written header (v1 or v2) and raw data bytes. */
function npy(header: string, data: Uint8Array, major = 1): Uint8Array {
  const lenBytes = major === 1 ? 2 : 4;
  let h = header;
  const pad = (64 - ((8 + lenBytes + h.length + 1) % 64)) % 64;
  h += ' '.repeat(pad) + '\n';
  const out = new Uint8Array(8 + lenBytes + h.length + data.length);
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, major, 0]);
  const view = new DataView(out.buffer);
  if (lenBytes === 2) view.setUint16(8, h.length, true);
  else view.setUint32(8, h.length, true);
  out.set(new TextEncoder().encode(h), 8 + lenBytes);
  out.set(data, 8 + lenBytes + h.length);
  return out;
}
const bytes = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

describe('the shared .npz files', () => {
  test.each(CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    for (const [file, data] of [['inputs.npz', c.inputs], ['outputs.npz', c.outputs]] as const) {
      expect(data, file).toBeDefined();
      const arrays = readNpz(data!, file);
      expect(arrays.length).toBeGreaterThan(0);
      for (const a of arrays) {
        expect(a.name.length).toBeGreaterThan(0);
        expect(a.data.length).toBe(numel(a.shape));
        expect(a.data).toBeInstanceOf(DTYPES[a.dtype].array!);
      }
      // ...and survive writeNpz -> readNpz unchanged (names, order, dtypes, shapes, bytes).
      const again = readNpz(writeNpz(arrays), file);
      expect(again.map((a) => [a.name, a.dtype, a.shape])).toEqual(arrays.map((a) => [a.name, a.dtype, a.shape]));
      again.forEach((a, i) => expect(Buffer.compare(bytes(a.data), bytes(arrays[i].data))).toBe(0));
    }
  });
});

describe('writeNpz -> readNpz', () => {
  const ALL: DType[] = ['float32', 'float64', 'float16', 'int8', 'uint8', 'int16', 'uint16', 'int32', 'uint32', 'int64', 'uint64', 'bool'];

  test('every dtype, scalars, empty arrays, views into larger buffers; order kept', () => {
    const rand = mulberry32(1);
    const arrays: NpyArray[] = ALL.map((dtype, i) => {
      const shape = [[], [0], [7], [2, 3], [1, 2, 3, 2]][i % 5];
      const n = numel(shape);
      // A view at an odd offset inside a bigger buffer, filled with random bytes.
      const size = DTYPES[dtype].bytes;
      const buf = new Uint8Array((n + 3) * size).map(() => Math.floor(rand() * 256));
      if (dtype === 'bool') buf.forEach((_, j) => (buf[j] &= 1));
      const ctor = DTYPES[dtype].array! as unknown as new (b: ArrayBuffer, o: number, n: number) => NpyArray['data'];
      return { name: `z_${dtype}`, dtype, shape, data: new ctor(buf.buffer, 2 * size, n) };
    });
    arrays.push({ name: 'arr_0', dtype: 'int8', shape: [3], data: new Int8Array([-128, 0, 127]) });
    const back = readNpz(writeNpz(arrays), 'x.npz');
    expect(back.map((a) => [a.name, a.dtype, a.shape])).toEqual(arrays.map((a) => [a.name, a.dtype, a.shape]));
    back.forEach((a, i) => {
      expect(a.data.constructor).toBe(arrays[i].data.constructor);
      expect(Buffer.compare(bytes(a.data), bytes(arrays[i].data)), a.name).toBe(0);
    });
  });

  test('the written .npy header is what numpy writes: v1.0, 64-byte aligned data, ends in a newline', () => {
    const f = writeNpy({ dtype: 'int16', shape: [2, 3], data: new Int16Array(6) });
    const hlen = new DataView(f.buffer).getUint16(8, true);
    expect([...f.subarray(0, 8)]).toEqual([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]);
    expect((10 + hlen) % 64).toBe(0);
    const header = new TextDecoder().decode(f.subarray(10, 10 + hlen));
    expect(header).toMatch(/^\{'descr': '<i2', 'fortran_order': False, 'shape': \(2, 3\), \} *\n$/);
    expect(new TextDecoder().decode(writeNpy({ dtype: 'int8', shape: [5], data: new Int8Array(5) }))).toContain("'shape': (5,)");
  });
});

describe('hand-built .npy files', () => {
  test('Fortran-order arrays come out row-major', () => {
    // a = [[0, 1, 2], [10, 11, 12]] stored column-major: 0, 10, 1, 11, 2, 12
    const f = npy("{'descr': '<i4', 'fortran_order': True, 'shape': (2, 3), }", bytes(new Int32Array([0, 10, 1, 11, 2, 12])));
    const a = readNpy(f, 'f.npy');
    expect(a.shape).toEqual([2, 3]);
    expect([...a.data]).toEqual([0, 1, 2, 10, 11, 12]);
    // 3-D: element [i][j][k] = 100i + 10j + k, stored with i fastest.
    const shape = [2, 3, 4];
    const col: number[] = [];
    for (let k = 0; k < 4; k++) for (let j = 0; j < 3; j++) for (let i = 0; i < 2; i++) col.push(100 * i + 10 * j + k);
    const b = readNpy(npy("{'descr': '<f8', 'fortran_order': True, 'shape': (2, 3, 4), }", bytes(new Float64Array(col))), 'g.npy');
    const row: number[] = [];
    for (let i = 0; i < 2; i++) for (let j = 0; j < 3; j++) for (let k = 0; k < 4; k++) row.push(100 * i + 10 * j + k);
    expect(b.shape).toEqual(shape);
    expect([...b.data]).toEqual(row);
    // 1-D, scalar and empty Fortran arrays are the same as C order.
    expect([...readNpy(npy("{'descr': '|u1', 'fortran_order': True, 'shape': (3,), }", new Uint8Array([1, 2, 3])), 'h.npy').data]).toEqual([1, 2, 3]);
    expect([...readNpy(npy("{'descr': '|i1', 'fortran_order': True, 'shape': (), }", new Uint8Array([0xff])), 'h.npy').data]).toEqual([-1]);
    expect(readNpy(npy("{'descr': '<i2', 'fortran_order': True, 'shape': (0, 3), }", new Uint8Array()), 'h.npy').data.length).toBe(0);
  });

  test('big-endian data is byte-swapped', () => {
    const be = new Uint8Array([0x00, 0x01, 0xff, 0xfe, 0x7f, 0xff]);
    expect([...readNpy(npy("{'descr': '>i2', 'fortran_order': False, 'shape': (3,), }", be), 'be.npy').data]).toEqual([1, -2, 32767]);
    const f = new Uint8Array([0x3f, 0x80, 0, 0]);
    expect([...readNpy(npy("{'descr': '>f4', 'fortran_order': False, 'shape': (1,), }", f), 'be.npy').data]).toEqual([1]);
  });

  test('format v2 headers, Python 2 long dimensions and key order do not matter', () => {
    const v2 = npy("{'descr': '<i8', 'fortran_order': False, 'shape': (2,), }", bytes(new BigInt64Array([-1n, 2n ** 62n])), 2);
    expect([...readNpy(v2, 'v2.npy').data]).toEqual([-1n, 2n ** 62n]);
    const py2 = npy("{'shape': (2L, 1L), 'fortran_order': False, 'descr': '<u2'}", bytes(new Uint16Array([1, 65535])));
    const a = readNpy(py2, 'py2.npy');
    expect(a.shape).toEqual([2, 1]);
    expect([...a.data]).toEqual([1, 65535]);
  });
});

describe('bad files', () => {
  const good = () => writeNpz([{ name: 'x', dtype: 'int8', shape: [4, 4], data: new Int8Array(16).fill(3) }]);

  test('an empty file, and non-npz bytes named .npz', () => {
    expectError(() => readNpz(new Uint8Array(), 'inputs.npz'), 'bad-file', 'inputs.npz', /empty/);
    const rand = mulberry32(3);
    for (let k = 0; k < 30; k++) {
      const junk = new Uint8Array(1 + Math.floor(rand() * 2000)).map(() => Math.floor(rand() * 256));
      expectError(() => readNpz(junk, 'inputs.npz'), 'bad-file', 'inputs.npz');
    }
    expectError(() => readNpz(new TextEncoder().encode('x,y\n1,2\n'), 'inputs.npz'), 'bad-file', 'inputs.npz', /not a valid \.npz/);
    const onnxBytes = CASES[0].onnx;
    expectError(() => readNpz(onnxBytes, 'network.onnx'), 'bad-file', 'network.onnx');
    // a bare .npy is not an .npz
    expectError(() => readNpz(writeNpy({ dtype: 'int8', shape: [1], data: new Int8Array(1) }), 'x.npz'), 'bad-file', 'x.npz');
  });

  test('a zip without .npy files', () => {
    expectError(() => readNpz(zipSync({ 'readme.txt': new Uint8Array([65]) }), 'inputs.npz'), 'bad-file', 'inputs.npz', /no \.npy/);
  });

  test('a truncated .npz, cut anywhere', () => {
    const z = good();
    for (let cut = 0; cut < z.length; cut++) {
      let arrays: NpyArray[] | undefined;
      try {
        arrays = readNpz(z.subarray(0, cut), 'inputs.npz');
      } catch (e) {
        expect(e, `cut at ${cut}`).toBeInstanceOf(PlaygroundError);
        expect((e as PlaygroundError).message).toContain('inputs.npz');
      }
      expect(arrays, `cut at ${cut} was accepted`).toBeUndefined();
    }
  });

  test('a truncated .npy inside a valid zip (data, header, header length)', () => {
    const f = writeNpy({ dtype: 'int32', shape: [4, 4], data: new Int32Array(16) });
    expectError(() => readNpz(zipSync({ 'x.npy': f.subarray(0, f.length - 1) }), 'inputs.npz'), 'bad-file', "inputs.npz: x.npy: array 'x' is truncated", /63 of 64/);
    expectError(() => readNpz(zipSync({ 'x.npy': f.subarray(0, 40) }), 'inputs.npz'), 'bad-file', 'inputs.npz: x.npy', /header is truncated/);
    expectError(() => readNpz(zipSync({ 'x.npy': f.subarray(0, 6) }), 'inputs.npz'), 'bad-file', 'inputs.npz: x.npy', /magic/);
    const v2 = npy("{'descr': '<i4', 'fortran_order': False, 'shape': (1,), }", new Uint8Array(4), 2);
    for (const cut of [10, 11])
      expectError(() => readNpz(zipSync({ 'x.npy': v2.subarray(0, cut) }), 'inputs.npz'), 'bad-file', 'inputs.npz: x.npy', /truncated/);
  });

  test('malformed headers, unsupported dtypes and versions', () => {
    const one = (f: Uint8Array) => () => readNpz(zipSync({ 'a.npy': f }), 'in.npz');
    expectError(one(npy("{'descr': '<i4', 'shape': (1,), }", new Uint8Array(4))), 'bad-file', 'in.npz: a.npy', /malformed/);
    expectError(one(npy("{'descr': '<U5', 'fortran_order': False, 'shape': (1,), }", new Uint8Array(20))), 'dtype-mismatch', 'in.npz: a.npy', /'a'.*<U5/);
    expectError(one(npy("{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }", new Uint8Array(8))), 'dtype-mismatch', /'a'/);
    expectError(one(npy("{'descr': '|O', 'fortran_order': False, 'shape': (1,), }", new Uint8Array(8))), 'bad-file', /malformed/);
    expectError(one(npy("{'descr': '<i4', 'fortran_order': False, 'shape': (-1,), }", new Uint8Array(4))), 'bad-file', /'a'.*bad shape/);
    expectError(one(npy("{'descr': '<i4', 'fortran_order': False, 'shape': (2.5,), }", new Uint8Array(12))), 'bad-file', /'a'.*bad shape/);
    expectError(one(npy("{'descr': '<i4', 'fortran_order': False, 'shape': (99999999999, 99999999999), }", new Uint8Array(4))), 'bad-file', /'a' is truncated/);
    const v9 = npy("{'descr': '<i4', 'fortran_order': False, 'shape': (1,), }", new Uint8Array(4));
    v9[6] = 9;
    expectError(one(v9), 'bad-file', /version 9/);
  });

  test('byte-level fuzzing of the shared .npz files: a PlaygroundError or arrays, nothing else', () => {
    const files = CASES.flatMap((c) => [c.inputs!, c.outputs!]).filter((f) => f.length < 300_000);
    let ok = 0, refused = 0;
    for (let seed = 0; seed < 600; seed++) {
      const m = mutateBytes(files[seed % files.length], mulberry32(seed), files[(seed * 7 + 3) % files.length]);
      try {
        for (const a of readNpz(m.bytes, 'inputs.npz')) expect(a.data.length, m.what).toBe(numel(a.shape));
        ok++;
      } catch (e) {
        if (!(e instanceof PlaygroundError)) throw new Error(`seed ${seed} [${m.what}]: ${String(e)}`);
        expect(e.message).toContain('inputs.npz');
        refused++;
      }
    }
    expect(ok).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
  });

  test('an archive that unpacks beyond the size limit is refused before unpacking', () => {
    const z = good();
    // Patch the central directory's "uncompressed size" of the one entry to 1 GiB.
    const view = new DataView(z.buffer, z.byteOffset, z.byteLength);
    let cd = -1;
    for (let i = z.length - 22; i >= 0; i--) if (view.getUint32(i, true) === 0x02014b50) { cd = i; break; }
    expect(cd).toBeGreaterThan(0);
    view.setUint32(cd + 24, 2 ** 30, true);
    expectError(() => readNpz(z, 'big.npz'), 'limit', 'big.npz', String(MAX_NPZ_BYTES));
  });
});
