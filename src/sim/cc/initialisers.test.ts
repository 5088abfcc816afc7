// Initialisers: scalars, arrays (sized by their initialiser, partial, zero-filled), strings,
// nested with and without braces, designated (array index, member, nested, out of order),
// compound literals, static and global data with addresses (relocations).
import { expect, it } from 'vitest';
import { asserts } from './front-util';

const DEFS = `
struct P { int x, y; };
struct Q { char tag; struct P p[2]; int tail; };
int g1 = 3, garr[5] = {1, 2, [4] = 9}, *gp = &garr[2];
char gs[] = "hi", *gstr = "there";
struct Q gq = {'q', {{1, 2}, {3, 4}}, 5};
struct Q gq2 = {'r', 1, 2, 3, 4, 6};
struct P gd = {.y = 7, .x = 8};
int gm[2][2] = {[1][0] = 5, [0] = {1, 2}};
struct P *gpp = &(struct P){11, 12};
const char *names[] = {"zero", "one", "two"};
int gsize = sizeof(garr) / sizeof(garr[0]);
long long g64 = -1LL << 40;
unsigned char gbytes[4] = {255, 256 - 1, -1, 0x1ff};
int *gnull = 0;
`;

it('globals and static data', () => {
  expect(asserts(`
  ASSERT(3, g1); ASSERT(9, garr[4]); ASSERT(0, garr[3]); ASSERT(2, garr[1]); ASSERT(9, gp[2]); ASSERT(3, sizeof gs); ASSERT('t', *gstr);
  ASSERT('q', gq.tag); ASSERT(3, gq.p[1].x); ASSERT(5, gq.tail); ASSERT(4, gq2.p[1].y); ASSERT(6, gq2.tail);
  ASSERT(8, gd.x); ASSERT(7, gd.y); ASSERT(5, gm[1][0]); ASSERT(2, gm[0][1]); ASSERT(0, gm[1][1]); ASSERT(12, gpp->y);
  ASSERT('w', names[2][1]); ASSERT(5, gsize); ASSERT(-1099511627776LL, g64); ASSERT(255, gbytes[3]); ASSERT(255, gbytes[2]); ASSERT(0, gnull == 0 ? 0 : 1);
  static int counter = 10; counter++; ASSERT(11, counter); ASSERT(1, bump() == 1 && bump() == 2);
  `, DEFS + 'int bump(void) { static int n; return ++n; }')).toBe('');
});

it('locals', () => {
  expect(asserts(`
  int a[] = {1, 2, 3}; ASSERT(12, sizeof a); int b[4] = {1}; ASSERT(0, b[3]); ASSERT(1, b[0]);
  struct Q q = {'q', {{1, 2}, {3, 4}}, 5}; ASSERT(4, q.p[1].y); struct Q q2 = {'r', 1, 2, 3, 4, 6}; ASSERT(6, q2.tail);
  struct Q q3 = {.p[1].y = 9, .tag = 1}; ASSERT(9, q3.p[1].y); ASSERT(0, q3.p[0].x); ASSERT(1, q3.tag);
  int d[6] = {[2] = 5, 6, [0] = 1}; ASSERT(1, d[0]); ASSERT(5, d[2]); ASSERT(6, d[3]); ASSERT(0, d[5]);
  char s[8] = "ab"; ASSERT(0, s[7]); ASSERT('b', s[1]); char t[2] = "ab"; ASSERT('b', t[1]);
  int x = {4}; ASSERT(4, x); struct P p = {1}; ASSERT(0, p.y); struct P p2 = p; ASSERT(1, p2.x);
  int *cl = (int[]){7, 8, 9}; ASSERT(8, cl[1]); ASSERT(3, ((struct P){3, 4}).x); ASSERT(5, (int){5});
  int n = 3; int v[3] = {n, n * 2, n * 3}; ASSERT(9, v[2]);
  `, DEFS)).toBe('');
});
