/* Recursion: Fibonacci, Ackermann, mutual recursion, Towers of Hanoi, recursive descent over a
   tree built on the stack, quicksort, a recursive function with a large frame, 64-bit results. */
#include "test.h"

static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static int ack(int m, int n) { return m == 0 ? n + 1 : n == 0 ? ack(m - 1, 1) : ack(m - 1, ack(m, n - 1)); }
static int is_odd(unsigned n);
static int is_even(unsigned n) { return n == 0 ? 1 : is_odd(n - 1); }
static int is_odd(unsigned n) { return n == 0 ? 0 : is_even(n - 1); }
static int hanoi(int n, int from, int to, int via, int *log) {
  if (n == 0) return 0;
  int moves = hanoi(n - 1, from, via, to, log);
  *log = *log * 7 % 1000003 + from * 3 + to;
  return moves + 1 + hanoi(n - 1, via, to, from, log);
}
static long long fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }

struct tree { int v; struct tree *l, *r; };
static int depth(const struct tree *t) { if (!t) return 0; int a = depth(t->l), b = depth(t->r); return 1 + (a > b ? a : b); }
static int tsum(const struct tree *t) { return t ? t->v + tsum(t->l) + tsum(t->r) : 0; }
static struct tree *insert(struct tree *t, struct tree *node) {
  if (!t) return node;
  if (node->v < t->v) t->l = insert(t->l, node); else t->r = insert(t->r, node);
  return t;
}
static int inorder(const struct tree *t, int *out, int n) {
  if (!t) return n;
  n = inorder(t->l, out, n);
  out[n++] = t->v;
  return inorder(t->r, out, n);
}

static void quicksort(int *a, int lo, int hi) {
  if (lo >= hi) return;
  int p = a[(lo + hi) / 2], i = lo, j = hi;
  while (i <= j) {
    while (a[i] < p) i++;
    while (a[j] > p) j--;
    if (i <= j) { int t = a[i]; a[i] = a[j]; a[j] = t; i++; j--; }
  }
  quicksort(a, lo, j);
  quicksort(a, i, hi);
}

/* A frame of 1 KiB per level; the array must survive the recursive call. */
static int deep(int n) {
  int local[256];
  for (int i = 0; i < 256; i++) local[i] = n + i;
  int below = n > 0 ? deep(n - 1) : 0;
  return below + local[255] - local[0] + local[n & 255] - n;
}

int main(void) {
  ASSERT(0, fib(0));
  ASSERT(1, fib(1));
  ASSERT(55, fib(10));
  ASSERT(6765, fib(HIDE(20)));
  ASSERT(5, ack(1, 3));
  ASSERT(29, ack(HIDE(2), 13));
  ASSERT(61, ack(3, 3));
  ASSERT(1, is_even(HIDE(1000)));
  ASSERT(1, is_odd(HIDE(777)));
  int log = 0;
  ASSERT(1023, hanoi(HIDE(10), 1, 3, 2, &log));
  ASSERT(1, log != 0);
  int log2 = 0;
  hanoi(10, 1, 3, 2, &log2);
  ASSERT(log, log2);
  ASSERT(2432902008176640000LL, fact(HIDE(20)));

  struct tree nodes[9];
  static const int vals[9] = {50, 30, 70, 20, 40, 60, 80, 10, 45};
  struct tree *root = 0;
  for (int i = 0; i < 9; i++) { nodes[i].v = vals[i]; nodes[i].l = nodes[i].r = 0; root = insert(root, &nodes[i]); }
  ASSERT(4, depth(root));
  ASSERT(405, tsum(root));
  int sorted[9];
  ASSERT(9, inorder(root, sorted, 0));
  int ok = 1;
  for (int i = 1; i < 9; i++) ok &= sorted[i - 1] < sorted[i];
  ASSERT(1, ok);
  ASSERT(10, sorted[0]);

  int arr[64];
  unsigned seed = HIDE(12345u);
  for (int i = 0; i < 64; i++) { seed = seed * 1103515245u + 12345u; arr[i] = (int)(seed >> 16) % 1000 - 500; }
  quicksort(arr, 0, 63);
  ok = 1;
  for (int i = 1; i < 64; i++) ok &= arr[i - 1] <= arr[i];
  ASSERT(1, ok);

  ASSERT(101 * 255 + 100 * 101 / 2, deep(HIDE(100)));
  return done();
}
