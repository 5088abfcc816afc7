/* stdnoreturn.h: noreturn (dpg-cc's freestanding header). */
#ifndef __DPG_STDNORETURN_H
#define __DPG_STDNORETURN_H

#define noreturn _Noreturn

#endif
