// The test harness Deeploy's runners print from: main.c holds no data itself; testinputs.h
// has the inputs as the kernels see them (input typing applied), testoutputs.h the golden
// outputs. It runs the network once, timed with hal_cycles, and prints
// `Runtime: N cycles` and `Errors: E out of T` (with the first mismatching indices).
import { fail } from '../../common/errors';
import type { Graph } from '../ir/graph';
import type { TensorValue } from '../interpret/interpret';
import { numel } from '../ops/core/tensor';
import { intTypeOf } from '../passes/ranges';
import { cComment } from './c-text';
import { arrayDecl, C_TYPE, checkFits } from './ctypes';
import type { TensorTable } from './tensors';
import type { GeneratedFile } from './types';

/** Mismatches printed before the summary. */
export const SHOWN_MISMATCHES = 10;

const values = (v: TensorValue): number[] => Array.from(v.data as ArrayLike<number | bigint>, Number);

export function harnessFiles(graph: Graph, table: TensorTable, inputs: readonly TensorValue[], golden: readonly TensorValue[]): GeneratedFile[] {
  if (inputs.length !== graph.inputs.length) fail('internal', `${inputs.length} input arrays for ${graph.inputs.length} graph inputs`, 'codegen');
  if (golden.length !== graph.outputs.length)
    fail('bad-inputs', `holds ${golden.length} arrays, but the graph has ${graph.outputs.length} outputs`, 'outputs.npz', 'arrays map to graph outputs by position');

  const tin = ['/* testinputs.h: the network inputs as the kernels see them (input typing applied). */', ''];
  graph.inputs.forEach((v, k) => {
    const t = table.get(v.name)!;
    const n = numel(t.shape);
    const data = values(inputs[k]);
    if (data.length !== n) fail('bad-inputs', `input ${k} has ${data.length} values; '${v.name}' needs ${n}`, 'inputs.npz');
    const shifted = t.offset ? data.map((x) => x + t.offset) : data;
    checkFits(shifted, t.type, `input ${k}${t.offset ? ` shifted by ${t.offset}` : ''}`, 'inputs.npz');
    tin.push(`/* ${cComment(v.name)}: [${t.shape.join(', ')}] ${t.type}${t.offset ? `, stored = real value ${t.offset < 0 ? '- ' + -t.offset : '+ ' + t.offset}` : ''} */`);
    tin.push(arrayDecl('static const ', C_TYPE[t.type], `testInput${k}`, shifted), '');
  });

  const tout = ['/* testoutputs.h: the golden outputs. */', ''];
  graph.outputs.forEach((v, k) => {
    const n = numel(table.get(v.name)!.shape);
    const data = values(golden[k]);
    if (data.length !== n) fail('bad-inputs', `array ${k} has ${data.length} elements, but graph output ${k} ('${v.name}') has ${n}`, 'outputs.npz');
    checkFits(data, 'int32', `golden output ${k}`, 'outputs.npz');
    // The narrowest type holding the golden values (int8 mostly): the data sits in L2 beside the
    // plan's buffers, and a 4-byte copy of a large output did not fit (found by the fuzzer).
    const type = intTypeOf(data.reduce<[number, number]>((r, x) => [Math.min(r[0], x), Math.max(r[1], x)], [0, 0]))!;
    tout.push(`/* ${cComment(v.name)}: [${table.get(v.name)!.shape.join(', ')}] */`, arrayDecl('static const ', C_TYPE[type], `testOutput${k}`, data), '');
  });

  const main = [
    '/* main.c: runs the network once on the test inputs and checks the golden outputs (Deeploy Playground). */',
    '#include "Network.h"',
    '#include "testinputs.h"',
    '#include "testoutputs.h"',
    '',
    '/** Element i of the output `out` differs from the golden value: count it, show the first few. */',
    'static uint32_t errors = 0, total = 0;',
    'static void check(int out, uint32_t i, int32_t got, int32_t expected) {',
    '  total++;',
    '  if (got == expected) return;',
    `  if (errors < ${SHOWN_MISMATCHES}) printf("Mismatch in output %d at index %u: got %d, expected %d\\n", out, (unsigned)i, (int)got, (int)expected);`,
    '  errors++;',
    '}',
    '',
    '#if defined(DPG_IO_L3) && DPG_IO_L3',
    '/** The inputs and outputs pass through here on their way to and from L3. */',
    'HAL_L2 static uint8_t io[DPG_IO_BYTES];',
    '#endif',
    '',
    'int main(void) {',
    '  InitNetwork();',
    // Inputs and outputs in L3 are only reached through the uDMA: staged in an L2 buffer.
    '#if defined(DPG_IO_L3) && DPG_IO_L3',
    ...graph.inputs.map((_, k) =>
      `  for (uint32_t i = 0; i < dpg_input_elems[${k}]; i++) dpg_st(io, dpg_input_types[${k}], i, testInput${k}[i]);\n` +
      `  hal_l3_write(dpg_inputs[${k}], io, dpg_input_elems[${k}] * dpg_size(dpg_input_types[${k}]));`),
    '#else',
    ...graph.inputs.map((_, k) =>
      `  for (uint32_t i = 0; i < dpg_input_elems[${k}]; i++) dpg_st(dpg_inputs[${k}], dpg_input_types[${k}], i, testInput${k}[i]);`),
    '#endif',
    '',
    '  hal_measure(1); /* the energy estimate covers the network\'s run */',
    '  const uint32_t start = hal_cycles();',
    '  RunNetwork();',
    '  const uint32_t cycles = hal_cycles() - start;',
    '  hal_measure(0);',
    '',
    ...graph.outputs.flatMap((v, k) => {
      // An output still shifted by Generic's input typing (a Slice of an input, say) is compared unshifted.
      const off = table.get(v.name)!.offset;
      const got = `dpg_ld(dpg_outputs[${k}], dpg_output_types[${k}], i)${off ? ` - (${off})` : ''}`;
      const ioGot = `dpg_ld(io, dpg_output_types[${k}], i)${off ? ` - (${off})` : ''}`;
      return ['#if defined(DPG_IO_L3) && DPG_IO_L3',
        `  hal_l3_read(io, dpg_outputs[${k}], dpg_output_elems[${k}] * dpg_size(dpg_output_types[${k}]));`,
        `  for (uint32_t i = 0; i < dpg_output_elems[${k}]; i++) check(${k}, i, ${ioGot}, testOutput${k}[i]);`,
        '#else',
        `  for (uint32_t i = 0; i < dpg_output_elems[${k}]; i++) check(${k}, i, ${got}, testOutput${k}[i]);`,
        '#endif'];
    }),
    '  printf("Runtime: %u cycles\\n", (unsigned)cycles);',
    '  printf("Errors: %u out of %u\\n", (unsigned)errors, (unsigned)total);',
    '  hal_exit(errors == 0 ? 0 : 1);',
    '}',
    '',
  ];

  const make = [
    '# Builds the network for the host: make && ./network',
    '# KERNELS and RUNTIME: the kernel library and the HAL (src/compiler/kernels, src/compiler/runtime).',
    'KERNELS ?= kernels',
    'RUNTIME ?= runtime',
    'CC ?= cc',
    'CFLAGS ?= -O2 -std=c11 -Wall',
    '',
    'network: main.c Network.c Network_weights.c $(wildcard $(KERNELS)/*.c) $(RUNTIME)/hal_host.c $(RUNTIME)/neureka_task.c',
    '\t$(CC) $(CFLAGS) -D_POSIX_C_SOURCE=199309L -I. -I$(KERNELS) -I$(RUNTIME) -o $@ $^',
    '',
  ];

  return [
    { path: 'main.c', content: main.join('\n'), kind: 'harness' },
    { path: 'testinputs.h', content: tin.join('\n'), kind: 'data' },
    { path: 'testoutputs.h', content: tout.join('\n'), kind: 'data' },
    { path: 'Makefile', content: make.join('\n'), kind: 'build' },
  ];
}
