/* fencer's analysis-only <stdatomic.h>: the C11 atomic operations declared
 * as plain functions, so that the C reader sees each call by its name with
 * the memory order as a constant argument. Never compiled into a program. */
#ifndef __FENCER_STDATOMIC_H
#define __FENCER_STDATOMIC_H

typedef enum memory_order {
	memory_order_relaxed = 0,
	memory_order_consume = 1,
	memory_order_acquire = 2,
	memory_order_release = 3,
	memory_order_acq_rel = 4,
	memory_order_seq_cst = 5
} memory_order;

typedef _Atomic _Bool atomic_bool;
typedef _Atomic char atomic_char;
typedef _Atomic signed char atomic_schar;
typedef _Atomic unsigned char atomic_uchar;
typedef _Atomic short atomic_short;
typedef _Atomic unsigned short atomic_ushort;
typedef _Atomic int atomic_int;
typedef _Atomic unsigned int atomic_uint;
typedef _Atomic long atomic_long;
typedef _Atomic unsigned long atomic_ulong;
typedef _Atomic long long atomic_llong;
typedef _Atomic unsigned long long atomic_ullong;
typedef _Atomic __INTPTR_TYPE__ atomic_intptr_t;
typedef _Atomic __UINTPTR_TYPE__ atomic_uintptr_t;
typedef _Atomic __SIZE_TYPE__ atomic_size_t;
typedef _Atomic __PTRDIFF_TYPE__ atomic_ptrdiff_t;
typedef _Atomic __INTMAX_TYPE__ atomic_intmax_t;
typedef _Atomic __UINTMAX_TYPE__ atomic_uintmax_t;
typedef _Atomic __INT8_TYPE__ atomic_int_least8_t;
typedef _Atomic __UINT8_TYPE__ atomic_uint_least8_t;
typedef _Atomic __INT16_TYPE__ atomic_int_least16_t;
typedef _Atomic __UINT16_TYPE__ atomic_uint_least16_t;
typedef _Atomic __INT32_TYPE__ atomic_int_least32_t;
typedef _Atomic __UINT32_TYPE__ atomic_uint_least32_t;
typedef _Atomic __INT64_TYPE__ atomic_int_least64_t;
typedef _Atomic __UINT64_TYPE__ atomic_uint_least64_t;
typedef _Atomic int atomic_int_fast8_t;
typedef _Atomic unsigned atomic_uint_fast8_t;
typedef _Atomic long atomic_int_fast16_t;
typedef _Atomic unsigned long atomic_uint_fast16_t;
typedef _Atomic long atomic_int_fast32_t;
typedef _Atomic unsigned long atomic_uint_fast32_t;
typedef _Atomic long atomic_int_fast64_t;
typedef _Atomic unsigned long atomic_uint_fast64_t;

typedef struct atomic_flag { _Atomic _Bool __val; } atomic_flag;

#define ATOMIC_VAR_INIT(v) (v)
#define ATOMIC_FLAG_INIT { 0 }
#define kill_dependency(y) (y)
#define ATOMIC_BOOL_LOCK_FREE 2
#define ATOMIC_CHAR_LOCK_FREE 2
#define ATOMIC_SHORT_LOCK_FREE 2
#define ATOMIC_INT_LOCK_FREE 2
#define ATOMIC_LONG_LOCK_FREE 2
#define ATOMIC_LLONG_LOCK_FREE 2
#define ATOMIC_POINTER_LOCK_FREE 2

/* Unprototyped on purpose: they take any atomic object. */
long atomic_load();
long atomic_load_explicit();
void atomic_store();
void atomic_store_explicit();
void atomic_init();
long atomic_exchange();
long atomic_exchange_explicit();
_Bool atomic_compare_exchange_strong();
_Bool atomic_compare_exchange_strong_explicit();
_Bool atomic_compare_exchange_weak();
_Bool atomic_compare_exchange_weak_explicit();
long atomic_fetch_add();
long atomic_fetch_add_explicit();
long atomic_fetch_sub();
long atomic_fetch_sub_explicit();
long atomic_fetch_or();
long atomic_fetch_or_explicit();
long atomic_fetch_and();
long atomic_fetch_and_explicit();
long atomic_fetch_xor();
long atomic_fetch_xor_explicit();
_Bool atomic_flag_test_and_set();
_Bool atomic_flag_test_and_set_explicit();
void atomic_flag_clear();
void atomic_flag_clear_explicit();
void atomic_thread_fence(memory_order);
void atomic_signal_fence(memory_order);
_Bool atomic_is_lock_free();

#endif
