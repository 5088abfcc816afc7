/* sizeof and _Alignof on every type of ilp32, expressions (not evaluated), arrays, structs with
   padding, _Alignas, aligned objects' addresses (locals aligned beyond the stack's 16 bytes:
   overaligned.c). */
#include "test.h"
#include <stdalign.h>

struct a { char c; };
struct b { char c; short s; };
struct c { char c; int i; };
struct d { char c; long long ll; };
struct e { int i; char c; };
struct f { struct d inner; char tail; };
struct g { char c; _Alignas(16) int aligned; };
typedef struct { short s[3]; } h;

int main(void) {
  ASSERT(1, sizeof(char));
  ASSERT(1, sizeof(signed char));
  ASSERT(2, sizeof(short));
  ASSERT(4, sizeof(int));
  ASSERT(4, sizeof(long));
  ASSERT(8, sizeof(long long));
  ASSERT(4, sizeof(void *));
  ASSERT(4, sizeof(int (*)(void)));
  ASSERT(4, sizeof(size_t));
  ASSERT(4, sizeof(ptrdiff_t));
  ASSERT(4, sizeof(intptr_t));
  ASSERT(1, sizeof(_Bool));
  ASSERT(4, sizeof(enum { A, B }));
  ASSERT(1, _Alignof(char));
  ASSERT(2, _Alignof(short));
  ASSERT(4, _Alignof(int));
  ASSERT(8, _Alignof(long long));
  ASSERT(4, _Alignof(void *));
  ASSERT(8, alignof(long long));

  ASSERT(1, sizeof(struct a));
  ASSERT(4, sizeof(struct b));
  ASSERT(8, sizeof(struct c));
  ASSERT(16, sizeof(struct d));
  ASSERT(8, sizeof(struct e));
  ASSERT(24, sizeof(struct f));
  ASSERT(8, _Alignof(struct f));
  ASSERT(32, sizeof(struct g));
  ASSERT(16, offsetof(struct g, aligned));
  ASSERT(16, _Alignof(struct g));
  ASSERT(6, sizeof(h));
  ASSERT(2, _Alignof(h));

  int x = 1;
  ASSERT(4, sizeof x);
  ASSERT(4, sizeof(x++));
  ASSERT(1, x); /* not evaluated */
  ASSERT(8, sizeof(x + 1LL));
  ASSERT(4, sizeof((char)1 + (char)2)); /* promoted */
  ASSERT(4, sizeof 'a');
  ASSERT(8, sizeof(x ? 1LL : 2));
  ASSERT(40, sizeof(int[10]));
  ASSERT(24, sizeof(int[2][3]));
  int arr[7];
  ASSERT(28, sizeof arr);
  ASSERT(4, sizeof arr[0]);
  ASSERT(4, sizeof &arr[0]);
  ASSERT(4, sizeof(&arr));
  ASSERT(28, sizeof(*&arr));
  char *p = 0;
  ASSERT(1, sizeof *p); /* not dereferenced */
  ASSERT(16, sizeof(struct d *) * 4);

  static _Alignas(64) int buf64;
  ASSERT(0, (uintptr_t)&buf64 % 64);
  struct g gs[2];
  ASSERT(0, (uintptr_t)&gs[1].aligned % 16);
  long long ll;
  ASSERT(0, (uintptr_t)&ll % 8);
  return done();
}
