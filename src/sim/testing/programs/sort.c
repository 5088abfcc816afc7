/* Sorting: quicksort, merge sort and insertion sort on pseudo-random data, cross-checked. */
#include <stdio.h>
#include <string.h>

#define N 600
static unsigned seed = 12345;
static int rnd(void) { seed = seed * 1103515245u + 12345u; return (int)(seed >> 8) % 100000 - 50000; }

static void quick(int *a, int lo, int hi) {
  while (lo < hi) {
    int p = a[(lo + hi) / 2], i = lo, j = hi;
    while (i <= j) {
      while (a[i] < p) i++;
      while (a[j] > p) j--;
      if (i <= j) { int t = a[i]; a[i] = a[j]; a[j] = t; i++; j--; }
    }
    if (j - lo < hi - i) { quick(a, lo, j); lo = i; } else { quick(a, i, hi); hi = j; }
  }
}

static int tmp[N];
static void merge(int *a, int n) {
  if (n < 2) return;
  int h = n / 2;
  merge(a, h);
  merge(a + h, n - h);
  int i = 0, j = h, k = 0;
  while (i < h && j < n) tmp[k++] = a[i] <= a[j] ? a[i++] : a[j++];
  while (i < h) tmp[k++] = a[i++];
  while (j < n) tmp[k++] = a[j++];
  memcpy(a, tmp, n * sizeof(int));
}

static void insertion(short *a, int n) {
  for (int i = 1; i < n; i++) {
    short v = a[i];
    int j = i - 1;
    while (j >= 0 && a[j] > v) { a[j + 1] = a[j]; j--; }
    a[j + 1] = v;
  }
}

int main(void) {
  static int a[N], b[N];
  static short c[N];
  for (int round = 0; round < 3; round++) {
    for (int i = 0; i < N; i++) { a[i] = b[i] = rnd(); c[i] = (short)a[i]; }
    quick(a, 0, N - 1);
    merge(b, N);
    insertion(c, N);
    int same = memcmp(a, b, sizeof a) == 0, sorted = 1;
    long long sum = 0;
    for (int i = 0; i < N; i++) { sum += (long long)a[i] * (i + 1); if (i && c[i - 1] > c[i]) sorted = 0; }
    printf("round %d: same=%d sorted=%d min=%d max=%d median=%d weighted=%lld c0=%d cN=%d\n",
           round, same, sorted, a[0], a[N - 1], a[N / 2], sum, c[0], c[N - 1]);
  }
  return 0;
}
