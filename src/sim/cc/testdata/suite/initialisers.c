/* Initialisers: scalars, arrays (sized by the initialiser, partly initialised, designated),
   nested aggregates with and without inner braces, strings, static and global data with
   addresses of other objects (relocations), static locals initialised once. */
#include "test.h"

struct pt { int x, y; };
struct rect { struct pt a, b; const char *name; };

int g_scalar = 5;
int g_zero;
int g_arr[] = {1, 2, 3, 4};
int g_partial[6] = {9, 8};
struct rect g_rect = {{1, 2}, {3, 4}, "box"};
struct rect g_rect2 = {1, 2, 3, 4, "flat"};
struct pt g_pts[] = {[2] = {5, 6}, [0].y = 7};
int *g_ptr = &g_arr[2];
int **g_pptr = &g_ptr;
const char *g_names[] = {"zero", "one", "two"};
char g_str[] = "text";
char g_sized[10] = "abc";
const char *g_strptr = "literal" + 3;
struct rect *g_rp = &g_rect;
int g_designated[8] = {[1] = 1, [5] = 5, 6, [3] = 3};
long long g_ll[2] = {-1, 0x123456789LL};
short g_sh[3] = {-1, 2, -3};
unsigned char g_bytes[4] = {255, 128, 1};
static int g_static_arr[3][2] = {1, 2, 3, 4, 5, 6};
void (*g_fn)(void) = 0;
static int counter(void) { static int n = 10; return n++; }
static int *addr_of_static(void) { static int s = 42; return &s; }

int main(void) {
  ASSERT(5, g_scalar);
  ASSERT(0, g_zero);
  ASSERT(16, sizeof g_arr);
  ASSERT(3, g_arr[2]);
  ASSERT(8, g_partial[1]);
  ASSERT(0, g_partial[5]);
  ASSERT(4, g_rect.b.y);
  ASSERT('b', g_rect.name[0]);
  ASSERT(3, g_rect2.b.x);
  ASSERT(0, strcmp(g_rect2.name, "flat"));
  ASSERT(3, sizeof g_pts / sizeof g_pts[0]);
  ASSERT(7, g_pts[0].y);
  ASSERT(0, g_pts[0].x);
  ASSERT(6, g_pts[2].y);
  ASSERT(0, g_pts[1].x);
  ASSERT(3, *g_ptr);
  ASSERT(3, **g_pptr);
  ASSERT(0, strcmp(g_names[2], "two"));
  ASSERT(5, sizeof g_str);
  ASSERT('x', g_str[2]);
  ASSERT(0, g_sized[9]);
  ASSERT('c', g_sized[2]);
  ASSERT(0, strcmp(g_strptr, "eral"));
  ASSERT(2, g_rp->a.y);
  ASSERT(0, g_designated[0]);
  ASSERT(1, g_designated[1]);
  ASSERT(3, g_designated[3]);
  ASSERT(5, g_designated[5]);
  ASSERT(6, g_designated[6]);
  ASSERT(0, g_designated[7]);
  ASSERT(-1, g_ll[0]);
  ASSERT(0x123456789LL, g_ll[1]);
  ASSERT(-3, g_sh[2]);
  ASSERT(128, g_bytes[1]);
  ASSERT(0, g_bytes[3]);
  ASSERT(4, g_static_arr[1][1]);
  ASSERT(1, g_fn == 0);

  /* Locals: the same forms, initialised at run time. */
  int v = HIDE(3);
  int a[] = {v, v * 2, v * 3};
  ASSERT(12, sizeof a);
  ASSERT(9, a[2]);
  int z[5] = {v};
  ASSERT(3, z[0]);
  ASSERT(0, z[4]);
  struct rect r = {.b = {v, v + 1}, .name = "local"};
  ASSERT(0, r.a.x);
  ASSERT(4, r.b.y);
  ASSERT('l', r.name[0]);
  struct pt ps[3] = {{1, 2}, [2] = {v, v}};
  ASSERT(0, ps[1].y);
  ASSERT(3, ps[2].x);
  int m[2][3] = {{1}, {4, 5}};
  ASSERT(0, m[0][2]);
  ASSERT(5, m[1][1]);
  int flat[2][2] = {1, 2, 3};
  ASSERT(3, flat[1][0]);
  ASSERT(0, flat[1][1]);
  char s[] = {'h', 'i', 0};
  ASSERT(0, strcmp(s, "hi"));
  char big[64] = "";
  int nz = 0;
  for (int i = 0; i < 64; i++) nz += big[i] != 0;
  ASSERT(0, nz);
  struct pt copy = ps[2];
  ASSERT(3, copy.y);
  int scalar_braces = {7};
  ASSERT(7, scalar_braces);
  struct { char c; int arr[3]; } mixed = {'m', {[1] = v}};
  ASSERT(3, mixed.arr[1]);
  ASSERT(0, mixed.arr[2]);

  /* A static local is initialised once; its address is stable. */
  ASSERT(10, counter());
  ASSERT(11, counter());
  ASSERT(12, counter());
  int *ps1 = addr_of_static();
  *ps1 = 7;
  ASSERT(7, *addr_of_static());

  /* Initialisers that run in order, with side effects. */
  int k = 0;
  int seq[3] = {k++, k++, k++};
  ASSERT(3, k);
  ASSERT(1, seq[0] + seq[1] + seq[2] == 3);
  return done();
}
