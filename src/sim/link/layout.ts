// Where a Siracusa program's sections go: a typed layout derived from the platform's memory map
// (src/compiler/platforms/siracusa-memory.ts), with the semantics of the runtime's link script
// (src/compiler/runtime/siracusa/link.ld, which ld.lld-19 reads; link.test.ts checks they agree).
import { CORE_STACKS, SIRACUSA_MAP } from '../../compiler/platforms/siracusa-memory';

export type MemoryName = keyof typeof SIRACUSA_MAP;

export interface Memory { name: MemoryName; base: number; bytes: number; title: string }

/**
 * One output section: the input sections it takes (each group in input order, groups one after
 * the other, like `*(.text.start) *(.text .text.*)`), in which memory, aligned how, and the
 * symbols defined at its start and end.
 */
export interface OutputRule {
  name: string;
  memory: MemoryName;
  /** Input section names: exact, or a prefix ending in '*'. 'COMMON' takes the COMMON symbols. */
  groups: string[][];
  /** At least this alignment (the script's ALIGN(n)); the inputs' alignments raise it. */
  align: number;
  /** No bytes in the file (the loader zeroes memory). */
  nobits?: boolean;
  startSymbol?: string;
  endSymbol?: string;
  /** The end (and so endSymbol) is aligned to this (`. = ALIGN(16)` before it). */
  endAlign?: number;
  /** A short name for errors: "L1 data". */
  title: string;
}

export interface Layout {
  memories: Memory[];
  rules: OutputRule[];
  /** Input sections dropped without a word. */
  discard: string[];
  /** Absolute symbols (the stacks). */
  symbols: Record<string, number>;
  /** A rule's end may not pass this symbol's value: [rule, symbol, what lies above]. */
  ceilings: { rule: string; symbol: string; above: string }[];
  entry: string;
}

const stackTop = SIRACUSA_MAP.L1.base + SIRACUSA_MAP.L1.bytes;
const workerTop = stackTop - CORE_STACKS.controller;

/** Code, read-only data, data and .bss in L2, as both runtimes' link.ld place them (crt0 zeroes .bss). */
export const L2_SECTIONS: OutputRule[] = [
  { name: '.text', memory: 'L2', groups: [['.text.start'], ['.text', '.text.*']], align: 1, title: 'code' },
  { name: '.rodata', memory: 'L2', groups: [['.rodata', '.rodata.*', '.srodata', '.srodata.*']], align: 8, title: 'read-only data' },
  { name: '.data', memory: 'L2', groups: [['.data', '.data.*', '.sdata', '.sdata.*']], align: 8, title: 'data' },
  { name: '.bss', memory: 'L2', groups: [['.sbss', '.sbss.*', '.bss', '.bss.*', 'COMMON']], align: 16, nobits: true,
    startSymbol: '__bss_start', endSymbol: '__bss_end', endAlign: 16, title: 'zeroed data' },
];

/** Sections no image keeps. */
export const DISCARDED = ['.comment', '.riscv.attributes', '.note', '.note.*', '.llvm_addrsig'];

/** Siracusa: code and default data in L2; HAL_L1 below the core stacks; HAL_WMEM; HAL_L3. */
export const SIRACUSA_LAYOUT: Layout = {
  memories: [
    { name: 'L2', ...SIRACUSA_MAP.L2, title: 'L2' },
    { name: 'L1', ...SIRACUSA_MAP.L1, title: 'L1 (TCDM)' },
    { name: 'WMEM', ...SIRACUSA_MAP.WMEM, title: 'the N-EUREKA weight memory' },
    { name: 'L3', ...SIRACUSA_MAP.L3, title: 'L3' },
  ],
  rules: [
    ...L2_SECTIONS,
    { name: '.l1', memory: 'L1', groups: [['.l1', '.l1.*']], align: 16, startSymbol: '__l1_start', endSymbol: '__l1_end', title: 'L1 data' },
    { name: '.wmem', memory: 'WMEM', groups: [['.wmem', '.wmem.*']], align: 16, title: 'weight memory data' },
    { name: '.l3', memory: 'L3', groups: [['.l3', '.l3.*']], align: 16, title: 'L3 data' },
  ],
  discard: DISCARDED,
  symbols: {
    __controller_stack_size: CORE_STACKS.controller,
    __worker_stack_size: CORE_STACKS.worker,
    __controller_stack_top: stackTop,
    __worker_stacks_top: workerTop,
    __stacks_bottom: workerTop - CORE_STACKS.workers * CORE_STACKS.worker,
  },
  ceilings: [{ rule: '.l1', symbol: '__stacks_bottom', above: 'the core stacks' }],
  entry: '_start',
};

/** True when `name` matches a rule pattern (exact, or a prefix ending in '*'). */
export function matches(pattern: string, name: string): boolean {
  return pattern.endsWith('*') ? name.startsWith(pattern.slice(0, -1)) : name === pattern;
}
