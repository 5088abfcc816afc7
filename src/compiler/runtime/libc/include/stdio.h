#ifndef DPG_STDIO_H
#define DPG_STDIO_H
#include <stdarg.h>
#include <stddef.h>
#define EOF (-1)
int printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int vprintf(const char *fmt, va_list ap);
int sprintf(char *buf, const char *fmt, ...);
int snprintf(char *buf, size_t n, const char *fmt, ...);
int vsnprintf(char *buf, size_t n, const char *fmt, va_list ap);
int putchar(int c);
int puts(const char *s);
int fflush(void *stream);
#define stdout ((void *)1)
#endif
