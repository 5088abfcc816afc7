/* Strings and characters: literals and escapes, adjacent literal concatenation, sizeof of
   literals, character constants (plain char is unsigned on RISC-V), the libc's string functions
   and sprintf, building strings in buffers. */
#include "test.h"

static int my_strlen(const char *s) { const char *p = s; while (*p) p++; return (int)(p - s); }
static void reverse(char *s) { int n = my_strlen(s); for (int i = 0; i < n / 2; i++) { char t = s[i]; s[i] = s[n - 1 - i]; s[n - 1 - i] = t; } }
static const char *greeting(int i) { return i ? "bye" : "hi"; }

int main(void) {
  ASSERT(6, sizeof "hello");
  ASSERT(1, sizeof "");
  ASSERT(13, sizeof "hello, " "world");
  ASSERT('l', "hello"[2]);
  ASSERT(0, "abc"[3]);
  ASSERT(0, strcmp("con" "cat" "enated", "concatenated"));
  ASSERT(5, my_strlen(HIDE((const char *)"12345")));
  ASSERT(0, my_strlen(""));
  ASSERT(7, strlen("a\tb\nc\\d"));

  /* Escapes. */
  ASSERT(7, '\a');
  ASSERT(8, '\b');
  ASSERT(9, '\t');
  ASSERT(10, '\n');
  ASSERT(11, '\v');
  ASSERT(12, '\f');
  ASSERT(13, '\r');
  ASSERT(27, '\033');
  ASSERT(0, '\0');
  ASSERT(0x41, '\x41');
  ASSERT(39, '\'');
  ASSERT(34, "\""[0]);
  ASSERT(92, '\\');
  ASSERT(63, "\?"[0]);
  ASSERT(255, "\xff"[0]); /* plain char is unsigned */
  ASSERT(255, '\377' & 0xff);
  ASSERT(-1, (signed char)"\377"[0]);
  ASSERT(1, (char)-1 > 0);
  ASSERT(2, sizeof "\x41");
  ASSERT(0x12, "\0224"[0]); /* octal escapes stop after three digits */
  ASSERT('4', "\0224"[1]);
  ASSERT(4, sizeof 'a'); /* character constants are int */
  ASSERT(0x6162, 'ab'); /* multi-character constant, GCC's value */

  /* The libc. */
  char buf[32];
  strcpy(buf, "abc");
  ASSERT(3, strlen(buf));
  ASSERT(0, strcmp(buf, "abc"));
  ASSERT(1, strcmp("abd", buf) > 0);
  ASSERT(1, strcmp("ab", buf) < 0);
  ASSERT(0, strncmp("abcdef", "abcxyz", 3));
  ASSERT(1, strncmp("abcdef", "abcxyz", 4) < 0);
  ASSERT('c', *strchr(buf, 'c'));
  ASSERT(1, strchr(buf, 'z') == NULL);
  ASSERT(0, memcmp("\x01\x02", "\x01\x02", 2));
  ASSERT(1, memcmp("\x01\x82", "\x01\x02", 2) > 0); /* bytes compare as unsigned */
  memset(buf, 'x', 5);
  buf[5] = 0;
  ASSERT(0, strcmp(buf, "xxxxx"));
  memmove(buf + 1, buf, 4);
  memcpy(buf, "12345", 3);
  ASSERT(0, strcmp(buf, "123xx"));
  reverse(buf);
  ASSERT(0, strcmp(buf, "xx321"));

  ASSERT(9, sprintf(buf, "%s-%d-%c", "ab", -123, 'q'));
  ASSERT(0, strcmp(buf, "ab--123-q"));
  ASSERT(8, sprintf(buf, "%08x", 0xbeefu));
  ASSERT(0, strcmp(buf, "0000beef"));
  ASSERT(20, sprintf(buf, "%lld", -1234567890123456789LL + 1));
  ASSERT(0, strcmp(buf, "-1234567890123456788"));
  ASSERT(3, sprintf(buf, "%u", 255u));
  sprintf(buf, "%5s|%-3d|%X", "ab", 7, 0xabcu);
  ASSERT(0, strcmp(buf, "   ab|7  |ABC"));

  /* String literals are shared, read-only arrays; the pointer may be compared with itself. */
  const char *g = greeting(HIDE(1));
  ASSERT(0, strcmp(g, "bye"));
  ASSERT('h', *greeting(0));
  const char *words[] = {"one", "two", "three"};
  int total = 0;
  for (int i = 0; i < 3; i++) total += (int)strlen(words[i]);
  ASSERT(11, total);

  /* Building a string character by character. */
  char out[16];
  int n = 0;
  for (char c = 'a'; c <= 'e'; c++) out[n++] = c;
  out[n] = 0;
  ASSERT(0, strcmp(out, "abcde"));
  int digits = 0;
  for (const char *p = "a1b22c333"; *p; p++) digits += *p >= '0' && *p <= '9';
  ASSERT(6, digits);
  return done();
}
