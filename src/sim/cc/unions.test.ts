// Unions: size and alignment, type punning (little-endian), initialisation of the first member.
import { expect, it } from 'vitest';
import { asserts } from './front-util';

it('unions', () => {
  expect(asserts(`
  ASSERT(8, sizeof(union U)); ASSERT(8, _Alignof(union U)); union U u; u.l = 0x1122334455667788LL;
  ASSERT(0x55667788, u.i); ASSERT(0x88, u.c[0]); ASSERT(0x11, u.c[7]); u.c[0] = 0; ASSERT(0x55667700, u.i);
  union U v = {0x0102}; ASSERT(0x02, v.c[0]); ASSERT(0x0102, v.i);
  union U w = {.c = {1, 2}}; ASSERT(0x0201, w.i);
  ASSERT(4, sizeof(union { char a[3]; short s; int i; }));
  `, 'union U { int i; long long l; unsigned char c[8]; };')).toBe('');
});
