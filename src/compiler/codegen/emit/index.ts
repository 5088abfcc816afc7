// The layer emitters, one per kernel family of the catalogues, found by the bound kernel's name.
import { fail } from '../../../common/errors';
import type { Node } from '../../ir/graph';
import type { Binding } from '../../lower/types';
import { whereNode } from '../../ops/types';
import { convEmitters } from './conv';
import { elementwiseEmitters } from './elementwise';
import { linearEmitters } from './linear';
import { movementEmitters } from './movement';
import { neurekaEmitters } from './neureka';
import { rowEmitters } from './rows';
import type { Emitter } from './types';

export const EMITTERS: readonly Emitter[] = [...convEmitters, ...linearEmitters, ...elementwiseEmitters, ...rowEmitters, ...movementEmitters, ...neurekaEmitters];

export function emitterFor(b: Binding, node: Node): Emitter {
  const e = EMITTERS.find((x) => x.family.test(b.kernel));
  if (!e) fail('not-implemented', `no code generator for kernel ${b.kernel}`, whereNode(node), 'the kernel library and codegen do not cover this kernel yet');
  return e;
}
