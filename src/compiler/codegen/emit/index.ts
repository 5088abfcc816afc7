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
import { userEmitter } from './user';
import { installedUserOps, userOpOf } from '../../ops/user/session';
import { kernelName } from '../../ops/user/kernel';

/** The kernel library functions (dpg_*) and user kernels a layer's code calls. */
export function callsIn(code: string): string[] {
  const user = installedUserOps().map((o) => kernelName(o.spec));
  const re = new RegExp(`\\b(?:dpg_[a-z0-9_]+${user.map((n) => `|${n}`).join('')})(?=\\()`, 'g');
  return [...new Set(code.match(re) ?? [])];
}

export const EMITTERS: readonly Emitter[] = [...convEmitters, ...linearEmitters, ...elementwiseEmitters, ...rowEmitters, ...movementEmitters, ...neurekaEmitters];

export function emitterFor(b: Binding, node: Node): Emitter {
  if (userOpOf(node.domain, node.op)) return userEmitter;
  const e = EMITTERS.find((x) => x.family.test(b.kernel));
  if (!e) fail('not-implemented', `no code generator for kernel ${b.kernel}`, whereNode(node), 'the kernel library and codegen do not cover this kernel yet');
  return e;
}
