/* The calling convention between separately compiled files: abi_callee.c defines these, and
   abi_caller.c calls them; the two files are built by different compilers (ours and clang-19)
   and linked together, both ways round. Every shape the ilp32 ABI treats specially is here. */
#ifndef ABI_H
#define ABI_H
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

/* Narrow arguments and results: the caller extends arguments, the callee extends results. */
int narrow_args(signed char a, unsigned char b, short c, unsigned short d, _Bool e, char f);
signed char ret_s8(int x);
unsigned char ret_u8(int x);
short ret_s16(int x);
unsigned short ret_u16(int x);
_Bool ret_bool(int x);

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

/* Many arguments and varargs. */
int many12(int a, int b, int c, int d, int e, int f, int g, int h, int i, int j, int k, int l);
long long vsum(int n, ...); /* n pairs: a tag (0 int, 1 long long, 2 struct b8) then the value */

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
