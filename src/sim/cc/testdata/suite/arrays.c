/* Arrays: one to three dimensions, arrays as parameters, sizeof of arrays, global and static
   arrays, arrays of chars, indices computed at run time, array of structs. */
#include "test.h"

int garr[10];
static int gmat[4][5] = {{1, 2, 3, 4, 5}, {6, 7, 8, 9, 10}};
static const unsigned char table[256] = {[0] = 1, [1] = 2, [128] = 3, [255] = 4};

static int sum(const int *a, int n) { int s = 0; for (int i = 0; i < n; i++) s += a[i]; return s; }
static int trace(int m[][5], int n) { int s = 0; for (int i = 0; i < n; i++) s += m[i][i]; return s; }
static void fill(int a[10], int v) { for (int i = 0; i < 10; i++) a[i] = v + i; }
static int sizeof_param(int a[10]) { return sizeof a; }

int main(void) {
  int a[5];
  for (int i = 0; i < 5; i++) a[i] = i * i;
  ASSERT(16, a[4]);
  ASSERT(30, sum(a, 5));
  ASSERT(20, sizeof a);
  ASSERT(5, sizeof a / sizeof a[0]);
  ASSERT(4, sizeof_param(a));

  int b[3][4];
  for (int i = 0; i < 3; i++) for (int j = 0; j < 4; j++) b[i][j] = i * 4 + j;
  ASSERT(11, b[2][3]);
  ASSERT(6, *(*(b + 1) + 2));
  ASSERT(48, sizeof b);
  ASSERT(16, sizeof b[0]);
  ASSERT(5, ((int *)b)[5]);

  char c3[2][3][4];
  for (int i = 0; i < 2; i++) for (int j = 0; j < 3; j++) for (int k = 0; k < 4; k++) c3[i][j][k] = (char)(i * 100 + j * 10 + k);
  ASSERT(123, c3[1][2][3]);
  ASSERT(24, sizeof c3);
  ASSERT(12, sizeof c3[1]);
  ASSERT(112, ((char *)c3)[12 + 4 * 1 + 2]);

  fill(garr, 5);
  ASSERT(5, garr[0]);
  ASSERT(14, garr[9]);
  ASSERT(95, sum(garr, 10));
  ASSERT(1 + 7, trace(gmat, 2));
  ASSERT(0, gmat[3][4]);
  ASSERT(10, gmat[1][4]);
  ASSERT(1, table[0]);
  ASSERT(3, table[HIDE(128)]);
  ASSERT(4, table[HIDE(255)]);
  ASSERT(0, table[HIDE(7)]);

  /* Indices from run-time values, negative offsets from an interior pointer. */
  int idx = HIDE(3);
  a[idx] = 99;
  ASSERT(99, a[3]);
  int *mid = &a[2];
  ASSERT(1, mid[-1]);
  ASSERT(99, mid[1]);

  /* A char array initialised from a string literal and changed in place. */
  char s[] = "hello";
  ASSERT(6, sizeof s);
  s[0] = 'j';
  ASSERT('j', s[0]);
  ASSERT(0, strcmp(s, "jello"));
  char t[8] = "ab";
  ASSERT(0, t[5]);
  ASSERT('b', t[1]);

  /* Arrays of structs and structs of arrays. */
  struct pt { int x, y; } pts[4];
  for (int i = 0; i < 4; i++) { pts[i].x = i; pts[i].y = -i; }
  ASSERT(-3, pts[3].y);
  ASSERT(32, sizeof pts);
  struct { int v[3]; char tag; } box = {{1, 2, 3}, 'z'};
  ASSERT(3, box.v[2]);
  ASSERT('z', box.tag);
  ASSERT(16, sizeof box);

  /* A large local array (several KiB of stack). */
  int big[2000];
  for (int i = 0; i < 2000; i++) big[i] = i;
  long long s2 = 0;
  for (int i = 0; i < 2000; i++) s2 += big[i];
  ASSERT(1999000, s2);

  /* Copying an array by copying a struct that holds it. */
  struct holder { int v[4]; } h1 = {{5, 6, 7, 8}}, h2;
  h2 = h1;
  h1.v[0] = 0;
  ASSERT(5, h2.v[0]);
  ASSERT(8, h2.v[3]);
  return done();
}
