/* fencer's analysis-only <assert.h>: assert is a function here, so that the
 * C reader sees each call by name. Never compiled into a program. */
#ifndef __FENCER_ASSERT_H
#define __FENCER_ASSERT_H
void assert(int);
#define static_assert _Static_assert
#endif
