// NumPy .npy / .npz reading and writing (inputs and golden outputs). An .npz is a zip of
// .npy files; arrays keep the zip's order, which is how Deeploy maps them to graph I/O.
import { unzipSync, zipSync } from 'fflate';
import { fail, PlaygroundError } from '../common/errors';
import { DTYPES, numel } from './ir/dtype';
import type { DType, TensorData } from './ir/graph';

export interface NpyArray {
  name: string;
  dtype: DType;
  shape: number[];
  data: TensorData;
}

// numpy type codes (without byte order) <-> DType
const DESCR: Record<string, DType> = {
  b1: 'bool', i1: 'int8', u1: 'uint8', i2: 'int16', u2: 'uint16', i4: 'int32', u4: 'uint32',
  i8: 'int64', u8: 'uint64', f2: 'float16', f4: 'float32', f8: 'float64',
};
const DESCR_OF = Object.fromEntries(Object.entries(DESCR).map(([k, v]) => [v, k])) as Record<DType, string>;

const MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]; // "\x93NUMPY"

/** Largest .npz we unpack (all arrays together); beyond this the browser tab would run out of memory. */
export const MAX_NPZ_BYTES = 256 * 1024 * 1024;

export function readNpy(bytes: Uint8Array, where: string, name = ''): NpyArray {
  if (bytes.length < 10 || MAGIC.some((b, i) => bytes[i] !== b))
    fail('bad-file', 'is not a .npy array (bad magic)', where);
  const major = bytes[6];
  if (major < 1 || major > 3) fail('bad-file', `has unsupported .npy format version ${major}.${bytes[7]}`, where);
  const headerLenBytes = major === 1 ? 2 : 4;
  const start = 8 + headerLenBytes;
  if (bytes.length < start) fail('bad-file', '.npy header is truncated', where);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const hlen = headerLenBytes === 2 ? view.getUint16(8, true) : view.getUint32(8, true);
  if (start + hlen > bytes.length) fail('bad-file', '.npy header is truncated', where);
  const header = new TextDecoder('latin1').decode(bytes.subarray(start, start + hlen));
  const descr = /'descr'\s*:\s*'([<>|=])([a-zA-Z]\d+)'/.exec(header);
  const fortran = /'fortran_order'\s*:\s*(True|False)/.exec(header);
  const shapeM = /'shape'\s*:\s*\(([^)]*)\)/.exec(header);
  if (!descr || !fortran || !shapeM) fail('bad-file', `.npy header is malformed: ${header.trim()}`, where);
  const dtype = DESCR[descr[2]];
  if (!dtype) fail('dtype-mismatch', `array '${name}' has unsupported dtype '${descr[1]}${descr[2]}'`, where, 'use integer or float arrays');
  // Python 2's numpy wrote long dimensions as '3L'.
  const shape = shapeM[1].split(',').map((s) => s.trim().replace(/L$/, '')).filter((s) => s.length).map(Number);
  if (shape.some((d) => !Number.isInteger(d) || d < 0)) fail('bad-file', `array '${name}' has a bad shape (${shapeM[1]})`, where);
  const n = numel(shape);
  const size = n * DTYPES[dtype].bytes;
  const dataStart = start + hlen;
  if (bytes.length - dataStart < size)
    fail('bad-file', `array '${name}' is truncated: ${bytes.length - dataStart} of ${size} data bytes`, where);
  const copy = new Uint8Array(size);
  copy.set(bytes.subarray(dataStart, dataStart + size));
  if (descr[1] === '>') byteSwap(copy, DTYPES[dtype].bytes);
  const ctor = DTYPES[dtype].array! as unknown as { new (b: ArrayBuffer): TensorData };
  const data = new ctor(copy.buffer);
  return { name, dtype, shape, data: fortran[1] === 'True' ? fortranToC(data, shape) : data };
}

/** Big-endian -> little-endian, in place, for elements of `width` bytes. */
function byteSwap(b: Uint8Array, width: number): void {
  for (let i = 0; i + width <= b.length; i += width) b.subarray(i, i + width).reverse();
}

/** Column-major (first index fastest) -> row-major, the layout everything else expects. */
function fortranToC(src: TensorData, shape: number[]): TensorData {
  const n = src.length;
  const dst = new (src.constructor as { new (n: number): TensorData })(n);
  const rank = shape.length;
  const idx = new Array<number>(rank).fill(0);
  const fStride: number[] = [];
  for (let d = 0, s = 1; d < rank; d++) { fStride.push(s); s *= shape[d]; }
  // Walk destination indices in C order, computing the Fortran offset incrementally.
  for (let i = 0, f = 0; i < n; i++) {
    (dst as Float64Array)[i] = (src as Float64Array)[f];
    for (let d = rank - 1; d >= 0; d--) {
      if (++idx[d] < shape[d]) { f += fStride[d]; break; }
      f -= fStride[d] * (shape[d] - 1);
      idx[d] = 0;
    }
  }
  return dst;
}

export function readNpz(bytes: Uint8Array, fileName: string): NpyArray[] {
  if (bytes.length === 0) fail('bad-file', 'the file is empty', fileName, 'save arrays with numpy.savez');
  let files: Record<string, Uint8Array>;
  let total = 0;
  try {
    files = unzipSync(bytes, {
      filter: (f) => {
        total += f.originalSize;
        if (total > MAX_NPZ_BYTES)
          fail('limit', `unpacks to more than the ${MAX_NPZ_BYTES}-byte limit (at '${f.name}')`, fileName);
        return true;
      },
    });
  } catch (e) {
    if (e instanceof PlaygroundError) throw e;
    fail('bad-file', `is not a valid .npz archive (${(e as Error).message})`, fileName, 'save it with numpy.savez');
  }
  const names = Object.keys(files).filter((f) => f.endsWith('.npy'));
  if (names.length === 0) fail('bad-file', 'contains no .npy arrays', fileName);
  return names.map((f) => readNpy(files[f], `${fileName}: ${f}`, f.slice(0, -4)));
}

export function writeNpy(a: Omit<NpyArray, 'name'>): Uint8Array {
  const shape = a.shape.length === 1 ? `(${a.shape[0]},)` : `(${a.shape.join(', ')})`;
  const endian = DTYPES[a.dtype].bytes === 1 ? '|' : '<';
  let header = `{'descr': '${endian}${DESCR_OF[a.dtype]}', 'fortran_order': False, 'shape': ${shape}, }`;
  // Pad so the data starts on a 64-byte boundary, as numpy does.
  const total = 10 + header.length + 1;
  header += ' '.repeat((64 - (total % 64)) % 64) + '\n';
  const out = new Uint8Array(10 + header.length + a.data.byteLength);
  out.set(MAGIC);
  out[6] = 1;
  out[7] = 0;
  new DataView(out.buffer).setUint16(8, header.length, true);
  out.set(new TextEncoder().encode(header), 10);
  out.set(new Uint8Array(a.data.buffer, a.data.byteOffset, a.data.byteLength), 10 + header.length);
  return out;
}

export function writeNpz(arrays: NpyArray[]): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  for (const a of arrays) files[`${a.name}.npy`] = writeNpy(a);
  // A fixed timestamp keeps the bytes reproducible (same arrays, same file).
  return zipSync(files, { level: 6, mtime: new Date(1980, 0, 1) });
}
