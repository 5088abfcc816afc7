/* limits.h: sizes of integer types, ilp32 with unsigned char (dpg-cc's freestanding header). */
#ifndef __DPG_LIMITS_H
#define __DPG_LIMITS_H

#define CHAR_BIT 8
#define MB_LEN_MAX 1

#define SCHAR_MIN (-127 - 1)
#define SCHAR_MAX 127
#define UCHAR_MAX 255
/* char is unsigned on RISC-V. */
#define CHAR_MIN 0
#define CHAR_MAX UCHAR_MAX

#define SHRT_MIN (-32767 - 1)
#define SHRT_MAX 32767
#define USHRT_MAX 65535

#define INT_MIN (-2147483647 - 1)
#define INT_MAX 2147483647
#define UINT_MAX 4294967295U

#define LONG_MIN (-2147483647L - 1)
#define LONG_MAX 2147483647L
#define ULONG_MAX 4294967295UL

#define LLONG_MIN (-9223372036854775807LL - 1)
#define LLONG_MAX 9223372036854775807LL
#define ULLONG_MAX 18446744073709551615ULL

#endif
