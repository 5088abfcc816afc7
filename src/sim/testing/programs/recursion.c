/* Recursion, indirect calls and jump tables. */
#include <stdio.h>

static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static unsigned ack(unsigned m, unsigned n) { return m == 0 ? n + 1 : n == 0 ? ack(m - 1, 1) : ack(m - 1, ack(m, n - 1)); }
static long hanoi(int n, int from, int to, int via) { return n == 0 ? 0 : hanoi(n - 1, from, via, to) + 1 + hanoi(n - 1, via, to, from); }
static int is_odd(unsigned n);
static int is_even(unsigned n) { return n == 0 ? 1 : is_odd(n - 1); }
static int is_odd(unsigned n) { return n == 0 ? 0 : is_even(n - 1); }

static int perms, board[9];
static void permute(int *a, int k, int n) {
  if (k == n) { perms++; if (a[0] == 3 && a[n - 1] == 0) board[0]++; return; }
  for (int i = k; i < n; i++) {
    int t = a[k]; a[k] = a[i]; a[i] = t;
    permute(a, k + 1, n);
    t = a[k]; a[k] = a[i]; a[i] = t;
  }
}

static int queens(int row, int n, int cols, int d1, int d2) {
  if (row == n) return 1;
  int count = 0;
  for (int c = 0; c < n; c++) {
    if (cols & (1 << c) || d1 & (1 << (row + c)) || d2 & (1 << (row - c + n))) continue;
    count += queens(row + 1, n, cols | 1 << c, d1 | 1 << (row + c), d2 | 1 << (row - c + n));
  }
  return count;
}

typedef int (*op_fn)(int, int);
static int add(int a, int b) { return a + b; }
static int sub(int a, int b) { return a - b; }
static int mul(int a, int b) { return a * b; }
static int xr(int a, int b) { return a ^ b; }

static const char *name(int k) {
  switch (k) {
    case 0: return "zero"; case 1: return "one"; case 2: return "two"; case 3: return "three";
    case 4: return "four"; case 5: return "five"; case 6: return "six"; case 7: return "seven";
    default: return "many";
  }
}

int main(void) {
  printf("fib(24) = %d\n", fib(24));
  printf("ack(2, 3) = %u, ack(3, 3) = %u\n", ack(2, 3), ack(3, 3));
  printf("hanoi(16) = %ld\n", hanoi(16, 1, 3, 2));
  printf("even(1001) = %d, odd(777) = %d\n", is_even(1001), is_odd(777));
  int a[7] = {0, 1, 2, 3, 4, 5, 6};
  permute(a, 0, 7);
  printf("permutations %d, 3..0 %d\n", perms, board[0]);
  for (int n = 4; n <= 8; n++) printf("queens(%d) = %d\n", n, queens(0, n, 0, 0, 0));
  op_fn ops[4] = {add, sub, mul, xr};
  int acc = 1;
  for (int i = 0; i < 40; i++) acc = ops[i & 3](acc, i * 7 + 3);
  printf("ops %d\n", acc);
  for (int k = 0; k < 10; k++) printf("%s%c", name(k), k == 9 ? '\n' : ' ');
  return 0;
}
