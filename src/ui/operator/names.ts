// What the main bundle needs to know of user operators without loading the compiler's op
// registry (which src/compiler/passes/ranges.ts and the kernel module pull in): the element types
// a user op may declare and its kernel's file name. names.test.ts keeps both equal to the
// compiler's (INT_TYPES, kernelPath).
import type { UserOpSpec } from '../../compiler/ops/user/spec';

export const OP_DTYPES = ['int8', 'uint8', 'int16', 'uint16', 'int32', 'uint32'] as const;

/** The kernel's file, as codegen, compile errors and the write guard name it. */
export const kernelFile = (spec: Pick<UserOpSpec, 'op'>) => `${spec.op}.c`;
