/* stdbool.h: boolean type and values (dpg-cc's freestanding header). */
#ifndef __DPG_STDBOOL_H
#define __DPG_STDBOOL_H

#define bool _Bool
#define true 1
#define false 0
#define __bool_true_false_are_defined 1

#endif
