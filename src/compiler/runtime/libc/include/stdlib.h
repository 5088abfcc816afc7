#ifndef DPG_STDLIB_H
#define DPG_STDLIB_H
#include <stddef.h>
void exit(int code) __attribute__((noreturn));
void abort(void) __attribute__((noreturn));
int abs(int x);
long labs(long x);
#endif
