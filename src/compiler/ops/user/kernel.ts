// The C side of a user operator: the kernel's name, file and signature (what codegen calls),
// the skeleton a student starts from, and how codegen calls it: forked on every core of the
// cluster with the same arguments (the kernel takes its share with dpg_chunk), after
// hal_guard_begin (which lasts to the end of its fork job) so a write outside the layer's output buffer stops the run.
import { fail } from '../../../common/errors';
import { cComment } from '../../codegen/c-text';
import { C_TYPE } from '../../codegen/ctypes';
import { SHORT } from '../../passes/ranges';
import type { UserOpSpec } from './spec';

/** The kernel's C function name: the op and its dtypes, Deeploy-style (iLeakyReLU_s8_s8). */
export function kernelName(spec: UserOpSpec): string {
  return [spec.op, ...spec.inputs.map((t) => SHORT[t.dtype]), SHORT[spec.output.dtype]].join('_');
}

/** The kernel's file, as the code pane, compile errors and the bounds checker name it. */
export function kernelPath(spec: UserOpSpec): string {
  return `${spec.op}.c`;
}

/** The shape parameters of a template, after the data pointers. */
function shapeParams(spec: UserOpSpec): [type: string, name: string, doc: string][] {
  switch (spec.shape) {
    case 'unary': return [['uint32_t', 'size', 'elements of x and y']];
    case 'binary': {
      const [a, b] = spec.inputs.map((t) => t.name);
      return [['uint32_t', 'rows', 'the output as a rows x cols matrix'], ['uint32_t', 'cols', ''],
        ['uint32_t', `${a}_rs`, `element (r, c) of ${a} is ${a}[r * ${a}_rs + c * ${a}_cs] (0: broadcast)`], ['uint32_t', `${a}_cs`, ''],
        ['uint32_t', `${b}_rs`, `likewise for ${b}`], ['uint32_t', `${b}_cs`, '']];
    }
    case 'reduce-last': return [['uint32_t', 'rows', 'rows to reduce (one output each)'], ['uint32_t', 'cols', 'elements per row']];
    case 'row-last': return [['uint32_t', 'rows', 'rows'], ['uint32_t', 'cols', 'elements per row (each output row reads its input row)']];
  }
}

/** Every parameter of the kernel, in order. */
export function kernelParams(spec: UserOpSpec): [type: string, name: string][] {
  const y = spec.output;
  return [
    ...spec.inputs.map((t): [string, string] => [`const ${C_TYPE[t.dtype]} *`, t.name]),
    [`${C_TYPE[y.dtype]} *`, y.name],
    ...shapeParams(spec).map(([t, n]): [string, string] => [t, n]),
    ...spec.attrs.flatMap((a): [string, string][] => (a.kind === 'int' ? [['int32_t', a.name]] : [['const int32_t *', a.name], ['uint32_t', `${a.name}_len`]])),
  ];
}

/** The prototype codegen declares and the skeleton defines. */
export function kernelSignature(spec: UserOpSpec): string {
  return `void ${kernelName(spec)}(${kernelParams(spec).map(([t, n]) => `${t}${t.endsWith('*') ? '' : ' '}${n}`).join(', ')})`;
}

/** The file a student starts from: the signature codegen calls, the per-core split, a body to write. */
export function kernelSkeleton(spec: UserOpSpec): string {
  const x = spec.inputs[0]?.name ?? 'x', y = spec.output.name, ty = C_TYPE[spec.output.dtype];
  const docs = shapeParams(spec).filter(([, , d]) => d).map(([, n, d]) => ` *   ${n}: ${d}`);
  const attrs = spec.attrs.map((a) => ` *   ${a.name}: attribute${a.kind === 'ints' ? ` (list of ${a.name}_len values)` : ''}${a.min !== undefined || a.max !== undefined ? `, in [${a.min ?? '-inf'}, ${a.max ?? 'inf'}]` : ''}`);
  const head = [
    `/* ${kernelPath(spec)}: the ${spec.op} kernel for the cluster.`,
    ` * Reference semantics (${spec.shape}): ${y} = ${cComment(spec.semantics, 1000)}`,
    ' * Every core of the fork calls it with the same arguments; each computes its own share',
    ' * (dpg_chunk: contiguous chunks of ceil(n / cores)). In a tiled layer the pointers are the',
    ' * tile\'s L1 buffers and the sizes the tile\'s. Writing outside y stops the run.',
    ...docs, ...attrs,
    ' */',
    '#include <stdint.h>',
    '#include "dpg_kernels.h" /* dpg_chunk, hal_core_id, hal_num_cores */',
    '#include "xpulp.h"       /* packed SIMD helpers */',
    '',
    `${kernelSignature(spec)} {`,
  ];
  let body: string[];
  switch (spec.shape) {
    case 'unary':
      body = ['  uint32_t lo, hi;', '  dpg_chunk(size, &lo, &hi);', '  for (uint32_t i = lo; i < hi; i++) {', `    int32_t v = ${x}[i];`,
        `    ${y}[i] = (${ty})v; /* TODO: the semantics */`, '  }'];
      break;
    case 'binary': {
      const [a, b] = spec.inputs.map((t) => t.name);
      body = ['  uint32_t lo, hi;', '  dpg_chunk(rows * cols, &lo, &hi);', '  for (uint32_t i = lo; i < hi; i++) {', '    uint32_t r = i / cols, c = i % cols;',
        `    int32_t va = ${a}[r * ${a}_rs + c * ${a}_cs], vb = ${b}[r * ${b}_rs + c * ${b}_cs];`, `    ${y}[i] = (${ty})(va + vb); /* TODO: the semantics */`, '  }'];
      break;
    }
    case 'reduce-last':
      body = ['  uint32_t lo, hi;', '  dpg_chunk(rows, &lo, &hi);', '  for (uint32_t r = lo; r < hi; r++) {', '    int32_t acc = 0;',
        `    for (uint32_t c = 0; c < cols; c++) acc += ${x}[r * cols + c];`, `    ${y}[r] = (${ty})acc; /* TODO: the semantics */`, '  }'];
      break;
    case 'row-last':
      body = ['  uint32_t lo, hi;', '  dpg_chunk(rows, &lo, &hi);', '  for (uint32_t r = lo; r < hi; r++) {', `    const ${C_TYPE[spec.inputs[0].dtype]} *row = ${x} + r * cols;`,
        '    int32_t rowmax = row[0];', '    for (uint32_t c = 1; c < cols; c++) rowmax = row[c] > rowmax ? row[c] : rowmax;',
        `    for (uint32_t c = 0; c < cols; c++) ${y}[r * cols + c] = (${ty})(row[c] - rowmax); /* TODO: the semantics */`, '  }'];
      break;
  }
  return [...head, ...body, '}', ''].join('\n');
}

/**
 * The binary template's 2D view of a broadcast: output dims grouped into at most two runs
 * (rows, cols) in which each input is either read along or broadcast, with element strides.
 */
export function binaryView(out: readonly number[], a: readonly number[], b: readonly number[], where: string):
  { rows: number; cols: number; strides: [number, number, number, number] } {
  const r = out.length;
  const pad = (s: readonly number[]) => [...new Array(r - s.length).fill(1), ...s];
  const A = pad(a), B = pad(b);
  // Per kept dim: is each input read along it (1) or broadcast (0)?
  const dims = out.map((d, i) => ({ d, pa: A[i] === d ? 1 : 0, pb: B[i] === d ? 1 : 0 })).filter((x) => x.d !== 1);
  const groups: { d: number; pa: number; pb: number }[] = [];
  for (const x of dims) {
    const g = groups[groups.length - 1];
    if (g && g.pa === x.pa && g.pb === x.pb) g.d *= x.d; else groups.push({ ...x });
  }
  if (groups.length > 2)
    fail('not-implemented', `its inputs [${a.join(', ')}] and [${b.join(', ')}] broadcast to [${out.join(', ')}] in ${groups.length} alternating runs; the binary kernel takes at most two (rows, cols)`, where,
      'reshape the inputs so that each is broadcast along at most one run of dimensions');
  while (groups.length < 2) groups.unshift({ d: 1, pa: 1, pb: 1 });
  const [R, C] = groups;
  return {
    rows: R.d, cols: C.d,
    strides: [R.pa ? (C.pa ? C.d : 1) : 0, C.pa, R.pb ? (C.pb ? C.d : 1) : 0, C.pb],
  };
}
