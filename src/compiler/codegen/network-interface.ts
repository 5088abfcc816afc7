// Network.h and the tables behind it: the interface the harness (main.c) uses to find the
// graph's inputs and outputs, their element types and counts, and to run the network.
import type { Graph } from '../ir/graph';
import { numel } from '../ops/core/tensor';
import type { TensorTable } from './tensors';

/** The harness's view of the graph inputs and outputs: buffer pointers, element types and counts. */
export function ioTables(graph: Graph, table: TensorTable, ptr: (name: string) => string): string[] {
  const typeTag = (name: string) => `DPG_${{ int8: 'S8', uint8: 'U8', int16: 'S16', uint16: 'U16', int32: 'S32', uint32: 'U32' }[table.get(name)!.type]}`;
  const list = (xs: string[]) => (xs.length ? xs.join(', ') : '0');
  return [
    `void *const dpg_inputs[DPG_NUM_INPUTS + 1] = {${list(graph.inputs.map((v) => ptr(v.name)))}};`,
    `const dpg_type_t dpg_input_types[DPG_NUM_INPUTS + 1] = {${list(graph.inputs.map((v) => typeTag(v.name)))}};`,
    `const uint32_t dpg_input_elems[DPG_NUM_INPUTS + 1] = {${list(graph.inputs.map((v) => String(numel(table.get(v.name)!.shape))))}};`,
    `void *const dpg_outputs[DPG_NUM_OUTPUTS + 1] = {${list(graph.outputs.map((v) => ptr(v.name)))}};`,
    `const dpg_type_t dpg_output_types[DPG_NUM_OUTPUTS + 1] = {${list(graph.outputs.map((v) => typeTag(v.name)))}};`,
    `const uint32_t dpg_output_elems[DPG_NUM_OUTPUTS + 1] = {${list(graph.outputs.map((v) => String(numel(table.get(v.name)!.shape))))}};`,
  ];
}

/** Network.h: the interface main.c uses; `extra` lines go before the function declarations. */
export function networkHeader(graph: Graph, maxCores: number, extra: string[] = []): string[] {
  return [
    '/* Network.h: the generated network\'s interface (Deeploy Playground). */',
    '#ifndef DPG_NETWORK_H',
    '#define DPG_NETWORK_H',
    '#include "hal.h"',
    '#include "dpg_kernels.h"',
    '',
    `#define DPG_NUM_INPUTS ${graph.inputs.length}`,
    `#define DPG_NUM_OUTPUTS ${graph.outputs.length}`,
    `/** Cores the layers are forked on (at most). */`,
    `#define DPG_CORES ${maxCores}`,
    '',
    '/* Buffers of the graph inputs and outputs, their element types and counts (one spare entry: C has no empty arrays). */',
    'extern void *const dpg_inputs[DPG_NUM_INPUTS + 1];',
    'extern const dpg_type_t dpg_input_types[DPG_NUM_INPUTS + 1];',
    'extern const uint32_t dpg_input_elems[DPG_NUM_INPUTS + 1];',
    'extern void *const dpg_outputs[DPG_NUM_OUTPUTS + 1];',
    'extern const dpg_type_t dpg_output_types[DPG_NUM_OUTPUTS + 1];',
    'extern const uint32_t dpg_output_elems[DPG_NUM_OUTPUTS + 1];',
    '',
    ...extra,
    'void InitNetwork(void);',
    'void RunNetwork(void);',
    '',
    '#endif',
    '',
  ];
}
