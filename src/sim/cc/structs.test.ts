// Structs: layout (offsets, padding, alignment), member access, nested and anonymous members,
// assignment and passing/returning by value, self-referential lists, packed and aligned.
import { expect, it } from 'vitest';
import { asserts } from './front-util';

it('layout', () => {
  expect(asserts(`
  ASSERT(8, sizeof(struct A)); ASSERT(4, offsetof(struct A, b)); ASSERT(16, sizeof(struct B)); ASSERT(8, offsetof(struct B, l));
  ASSERT(8, _Alignof(struct B)); ASSERT(3, sizeof(struct C)); ASSERT(1, _Alignof(struct C)); ASSERT(5, sizeof(struct P));
  ASSERT(1, offsetof(struct P, i)); ASSERT(16, _Alignof(struct Al)); ASSERT(16, sizeof(struct Al)); ASSERT(12, sizeof(struct F));
  `, `struct A { char a; int b; }; struct B { char c; long long l; }; struct C { char x[3]; };
      struct P { char c; int i; } __attribute__((packed)); struct Al { int x; } __attribute__((aligned(16)));
      struct F { int n; short s[3]; };`)).toBe('');
});

it('members, nesting, anonymous members', () => {
  expect(asserts(`
  struct S s; s.a = 1; s.in.x = 2; s.in.y = 3; s.u = 4; ASSERT(1, s.a); ASSERT(2, s.in.x); ASSERT(3, s.in.y); ASSERT(4, s.u);
  struct S *p = &s; p->in.y = 9; ASSERT(9, s.in.y); ASSERT(4, p->u); p->v = 0x01020304; ASSERT(4, s.v);
  `, `struct S { int a; struct { int x, y; } in; union { int u; char v; }; };`)).toBe('');
});

it('by value: assignment, arguments, results', () => {
  expect(asserts(`
  struct V a = {1, 2, 3}, b; b = a; b.x = 10; ASSERT(1, a.x); ASSERT(10, b.x);
  struct V c = add(a, b); ASSERT(11, c.x); ASSERT(4, c.y); ASSERT(6, c.z); ASSERT(13, add(a, b).x + mk(2).x);
  struct V d = mk(5); ASSERT(5, d.z); struct Big g = big(7); ASSERT(7, g.a[99]); ASSERT(7, bigsum(g) / 100);
  `, `struct V { int x, y, z; }; struct Big { int a[100]; };
      struct V add(struct V a, struct V b) { struct V r = {a.x + b.x, a.y + b.y, a.z + b.z}; a.x = 99; return r; }
      struct V mk(int n) { return (struct V){n, n, n}; }
      struct Big big(int n) { struct Big b; for (int i = 0; i < 100; i++) b.a[i] = n; return b; }
      int bigsum(struct Big b) { int s = 0; for (int i = 0; i < 100; i++) s += b.a[i]; return s; }`)).toBe('');
});

it('a linked list', () => {
  expect(asserts(`
  struct N n3 = {3, 0}, n2 = {2, &n3}, n1 = {1, &n2}; int s = 0; for (struct N *p = &n1; p; p = p->next) s += p->v; ASSERT(6, s);
  `, 'struct N { int v; struct N *next; };')).toBe('');
});
