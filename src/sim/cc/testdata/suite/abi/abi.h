/* The calling convention between separately compiled files: abi_callee.c defines these, and
   abi_caller.c calls them; the two files are built by different compilers (ours and clang-19)
   and linked together, both ways round. Every shape the ilp32 ABI treats specially is here:
   narrow integers (extended by the caller as arguments, by the callee as results), aggregates of
   up to 8 bytes (their bytes as one or two integer registers, split between a7 and the stack, on
   the stack; 8-aligned ones like a long long), larger ones (by reference to a copy; results
   through a hidden pointer), empty structs (nothing), all of them also as variadic arguments and
   through callbacks, so that each compiler is the caller of the other's functions. */
#ifndef ABI_H
#define ABI_H
#include <stdarg.h>
#include <stdint.h>

struct b1 { char c; };
struct b3 { char a, b, c; };
struct b6 { short a, b, c; };
struct b8 { int a, b; };
struct bll { long long v; };
struct b12 { int a, b, c; };
struct b24 { long long a; int b[4]; };
struct bits { unsigned lo : 5; signed mid : 11; unsigned hi : 16; };
union u8 { uint64_t v; uint16_t h[4]; };
typedef int8_t v4s __attribute__((vector_size(4)));
/* More layouts of 1..8 bytes: padding inside and at the end, byte arrays, nesting, 8-aligned. */
struct b2 { unsigned char a, b; };
struct b4 { short s; signed char c; };                /* a padding byte at the end */
struct b5 { char c[5]; };                             /* 1-aligned: two registers */
struct b7 { signed char c[7]; };
struct ci { char c; int i; };                         /* 3 padding bytes inside */
struct nest { struct b3 x; signed char y; };
union u4 { int i; short s[2]; unsigned char c[4]; };
struct al8 { int a; } __attribute__((aligned(8)));    /* 8 bytes, 8-aligned: like a long long */
typedef int32_t v2i __attribute__((vector_size(8)));
/* Over 8 bytes: by reference. */
struct b9 { char c[9]; };
struct b16 { long long a, b; };
/* Empty (a GNU extension, size 0): no register, no stack. */
struct empty {};

/* Narrow arguments and results: the caller extends arguments, the callee extends results. */
int narrow_args(signed char a, unsigned char b, short c, unsigned short d, _Bool e, char f);
signed char ret_s8(int x);
unsigned char ret_u8(int x);
short ret_s16(int x);
unsigned short ret_u16(int x);
_Bool ret_bool(int x);
char ret_char(int x);
unsigned ret_u32(int x);
int narrow_stack(int a, int b, int c, int d, int e, int f, int g, int h, signed char i, unsigned char j, short k, unsigned short l, _Bool m);
/* The callee calls back: f's result and g's arguments cross from its compiler to the caller's. */
int call_narrow(signed char (*f)(int), unsigned short (*g)(int), int (*h)(short, unsigned char, signed char), int x);

/* 64-bit values: in aligned register pairs, split between a7 and the stack, on the stack. */
long long ll_mix(int a, long long b, int c, long long d);
long long ll_late(int a, int b, int c, int d, int e, int f, int g, long long h, long long i);
unsigned long long ull_ops(unsigned long long a, unsigned long long b);

/* Aggregates by value and as results. */
struct b1 make_b1(char c);
struct b3 make_b3(char a);
struct b6 make_b6(short a);
struct b8 make_b8(int a, int b);
struct bll make_bll(long long v);
struct b12 make_b12(int a);
struct b24 make_b24(int a);
int take_aggregates(struct b1 a, struct b3 b, struct b6 c, struct b8 d, struct bll e, struct b12 f, struct b24 g);
int take_late_b8(int a, int b, int c, int d, int e, int f, int g, struct b8 h, struct b8 i);
struct bits flip_bits(struct bits b);
union u8 swap_halves(union u8 u);
v4s add_v4s(v4s a, v4s b);
struct b2 make_b2(int a);
struct b4 make_b4(int a);
struct b5 make_b5(int a);
struct b7 make_b7(int a);
struct ci make_ci(int a);
struct nest make_nest(int a);
union u4 make_u4(int a);
struct al8 make_al8(int a);
v2i add_v2i(v2i a, v2i b);
struct b9 make_b9(int a);
struct b16 make_b16(long long a);
/* Ten registers' worth: u4 and nest go on the stack. */
int take_small(struct b2 a, struct b4 b, struct b5 c, struct b7 d, struct ci e, union u4 f, struct nest g);
/* Split between a7 and the stack, then on the stack (4-aligned, or 8-aligned for al8). */
int split_b5(int a, int b, int c, int d, int e, int f, int g, struct b5 h, int i);
long long split_al8(int a, int b, int c, int d, int e, int f, int g, struct al8 h, int i);
long long stack_al8(int a, int b, int c, int d, int e, int f, int g, int h, int x, struct al8 s, int y);
int stack_small(int a, int b, int c, int d, int e, int f, int g, int h, struct b3 s, struct b6 t, int y);
int take_big(struct b9 a, struct b16 b, int c);
int take_empty(int a, struct empty e, int b, struct empty f);
struct empty make_empty(int *p);
/* The callee calls back with aggregates: the caller's function gets and returns them. */
int via_small(struct b5 (*f)(struct b3, struct b7, struct al8), int k);

/* Many arguments and varargs. */
int many12(int a, int b, int c, int d, int e, int f, int g, int h, int i, int j, int k, int l);
long long vsum(int n, ...); /* n pairs: a tag (see vsum_list) then the value */
/* The callee calls a variadic function of the caller's with every kind of anonymous argument. */
long long call_vsum(long long (*f)(int, ...), int k);

/* vsum's loop, compiled into both files: n (tag, value) pairs. */
static inline long long vsum_list(int n, va_list ap) {
  long long s = 0;
  for (int i = 0; i < n; i++) {
    switch (va_arg(ap, int)) {
    case 0: s += va_arg(ap, int); break;
    case 1: s += va_arg(ap, long long); break;
    case 2: { struct b8 p = va_arg(ap, struct b8); s += p.a * 100 + p.b; break; }
    case 3: { struct b3 p = va_arg(ap, struct b3); s += p.a + p.b * 10 + p.c * 100; break; }
    case 4: s += va_arg(ap, struct al8).a * 1000; break;
    case 5: { struct b12 p = va_arg(ap, struct b12); s += p.a + p.b + p.c; break; }
    case 6: { struct b6 p = va_arg(ap, struct b6); s += p.a - p.b + p.c; break; }
    case 7: { struct b16 p = va_arg(ap, struct b16); s += p.a - p.b; break; }
    case 8: { struct empty e = va_arg(ap, struct empty); (void)e; s += 1; break; }
    case 9: { struct b5 p = va_arg(ap, struct b5); s += p.c[0] + p.c[4] * 7; break; }
    default: return -1000000;
    }
  }
  return s;
}

/* Calls back into the other file. */
int apply_twice(int (*f)(int), int x);
long long fold(long long (*f)(long long, int), long long init, int n);
struct b12 via_callback(struct b12 (*f)(struct b12, int), int k);

/* Data defined in one file, used in the other. */
extern int shared_counter;
extern const char shared_text[];
extern struct b12 shared_struct;
void bump_shared(void);
#endif
