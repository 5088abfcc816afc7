// What a 'pragma' token asks of the compiler. The preprocessor does #pragma once and
// push_macro / pop_macro itself; the others reach the parser as one token each, in place.
import { errorAt } from './error';
import type { Token } from './token';

export type Pragma =
  /** `#pragma GCC unroll N` (also `#pragma unroll N`, clang's spelling): unroll the next loop N times (0 and 1: do not). */
  | { kind: 'unroll'; count: number }
  /** Anything else: ignored by the compiler, as GCC and clang ignore pragmas they do not know. */
  | { kind: 'other'; text: string };

export function parsePragma(t: Token): Pragma {
  const m = /^(?:GCC\s+unroll|unroll)\s*(.*)$/.exec(t.text);
  if (!m) return { kind: 'other', text: t.text };
  const arg = m[1].replace(/^\((.*)\)$/, '$1').trim();
  if (!/^(0x[0-9a-fA-F]+|\d+)[uUlL]*$/.test(arg)) errorAt(t, `#pragma GCC unroll needs an integer constant, not '${arg}'`);
  const count = Number(arg.replace(/[uUlL]+$/, ''));
  if (count > 65534) errorAt(t, `#pragma GCC unroll count ${count} is larger than 65534`);
  return { kind: 'unroll', count };
}
