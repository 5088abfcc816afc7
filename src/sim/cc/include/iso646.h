/* iso646.h: alternative spellings of operators (dpg-cc's freestanding header). */
#ifndef __DPG_ISO646_H
#define __DPG_ISO646_H

#define and &&
#define and_eq &=
#define bitand &
#define bitor |
#define compl ~
#define not !
#define not_eq !=
#define or ||
#define or_eq |=
#define xor ^
#define xor_eq ^=

#endif
