// The front end's diagnostics: file:line:col and a message naming the construct.
import { expect, it } from 'vitest';
import { ccError } from './front-util';

const cases: [string, string, string][] = [
  ['undeclared identifier', 'int main(void) {\n  return y;\n}', "/t/main.c:2:10: use of undeclared identifier 'y'"],
  ['undeclared function', 'int main(void) { return f(1); }', "/t/main.c:1:25: call to undeclared function 'f'"],
  ['missing semicolon', 'int main(void) { int x = 1\n return x; }', "/t/main.c:2:2: expected ';' after the declaration, found 'return'"],
  ['floating constant', 'int main(void) {\n  int x = 1;\n  return x * 2.5;\n}', '/t/main.c:3:14: floating point is not supported yet'],
  ['float variable', 'float g;', '/t/main.c:1:7: floating point is not supported yet'],
  ['assignment to a const', 'int main(void) { const int c = 1; c = 2; return c; }', "/t/main.c:1:37: assignment of read-only variable 'c'"],
  ['assignment to an rvalue', 'int main(void) { int a; a + 1 = 2; return 0; }', '/t/main.c:1:31: assignment needs an lvalue on the left'],
  ['no member', 'struct S { int a; };\nint f(struct S *s) { return s->b; }', "/t/main.c:2:32: no member named 'b' in struct S"],
  ['too few arguments', 'int g(int a, int b);\nint f(void) { return g(1); }', "/t/main.c:2:23: too few arguments to 'g' (expected 2, have 1)"],
  ['too many arguments', 'int g(int a);\nint f(void) { return g(1, 2); }', "/t/main.c:2:27: too many arguments to 'g' (expected 1)"],
  ['incompatible struct', 'struct A { int a; }; struct B { int b; };\nvoid f(void) { struct A a; struct B b = a; }', '/t/main.c:2:41: incompatible types in initialization: struct A to struct B'],
  ['bad operands', 'struct A { int a; };\nint f(struct A a) { return a + 1; }', "/t/main.c:2:30: invalid operands to '+' (struct A and int)"],
  ['dereference of int', 'int f(int x) { return *x; }', "/t/main.c:1:23: indirection requires a pointer operand (int invalid)"],
  ['break outside a loop', 'void f(void) { break; }', "/t/main.c:1:16: 'break' outside a loop or switch"],
  ['case outside switch', 'void f(int x) { case 1: ; }', "/t/main.c:1:17: 'case' outside a switch"],
  ['duplicate case', 'void f(int x) { switch (x) { case 1: case 1: ; } }', '/t/main.c:1:38: duplicate case value 1'],
  ['static assertion', '_Static_assert(sizeof(int) == 8, "int is 64 bits");', '/t/main.c:1:1: static assertion failed: int is 64 bits'],
  ['non-constant array size', 'int n; int a[n];', '/t/main.c:1:14: variable length arrays are not supported'],
  ['non-constant static initialiser', 'int n; int m = n + 1;', '/t/main.c:1:18: initializer element is not a compile-time constant'],
  ['excess initialisers', 'int a[2] = {1, 2, 3};', "/t/main.c:1:19: excess elements in the initializer of int[2]"],
  ['redefinition', 'int f(void) { return 0; }\nint f(void) { return 1; }', "/t/main.c:2:5: redefinition of 'f'"],
  ['redefinition of a variable', 'int a = 1;\nint b, a = 2;', "/t/main.c:2:8: redefinition of 'a'"],
  ['conflicting types', 'int f(int);\nlong long f(int);', "/t/main.c:2:11: conflicting types for 'f': long long(int) and int(int)"],
  ['unknown type', 'foo x;', "/t/main.c:1:1: unknown type name 'foo'"],
  ['bit-field too wide', 'struct S { char c : 9; };', "/t/main.c:1:21: width of bit-field 'c' (9 bits) exceeds its type (8 bits)"],
  ['asm output not an lvalue', 'int f(int a) { __asm__("nop" : "=r"(a + 1)); return a; }', '/t/main.c:1:32: asm output needs an lvalue on the left'],
  ['unterminated block', 'int f(void) { return 0;', "/t/main.c:1:24: expected '}' at end of input"],
  ['undeclared label', 'void f(void) {\n  goto out;\n}', "/t/main.c:2:3: use of undeclared label 'out'"],
  ['duplicate label', 'void f(void) { a: ; a: ; }', "/t/main.c:1:21: redefinition of label 'a'"],
  ['from a macro', '#define BAD(x) (x)->nope\nstruct S { int a; };\nint f(struct S *s) { return BAD(s); }', "/t/main.c:3:29: no member named 'nope' in struct S"],
];

it.each(cases)('%s', (_, src, want) => {
  expect(ccError(src)).toBe(want);
});
