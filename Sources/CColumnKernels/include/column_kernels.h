/*
 * column_kernels.h: the inner loops of scans and aggregates, over the values of a column block
 * in place.
 *
 * A cluster holds up to 1024 objects; queries keep one bit per object (a slot mask of 16 words
 * of 64 bits). These kernels decide or sum one word's 64 values at once: with AVX2 where the CPU
 * has it (chosen at run time), with plain loops otherwise. Values are little-endian and may be
 * unaligned, as they lie in a column block inside LMDB's map.
 */
#ifndef REALMDB_COLUMN_KERNELS_H
#define REALMDB_COLUMN_KERNELS_H

#include <stdint.h>

/* The comparisons a kernel can make: `value OP constant`. */
typedef enum {
    REALMDB_COMPARE_EQUAL = 0,
    REALMDB_COMPARE_NOT_EQUAL = 1,
    REALMDB_COMPARE_LESS = 2,
    REALMDB_COMPARE_LESS_OR_EQUAL = 3,
    REALMDB_COMPARE_GREATER = 4,
    REALMDB_COMPARE_GREATER_OR_EQUAL = 5,
} realmdb_comparison_t;

/* Bit i of the result is set when the i-th of the 64 int64 values at `values` compares true
 * against `constant`. */
uint64_t realmdb_compare_int64x64(const void *values, realmdb_comparison_t op, int64_t constant);

/* The same over 64 doubles, with IEEE semantics: a NaN value (or constant) compares true only
 * for NOT_EQUAL. */
uint64_t realmdb_compare_doublex64(const void *values, realmdb_comparison_t op, double constant);

/* An exact sum of int64 values: `high` * 2^64 + `low`, as a 128-bit two's complement number. */
typedef struct {
    uint64_t low;
    int64_t high;
} realmdb_int128_t;

/* Adds to `sum` the int64 values among the 64 at `values` whose bit is set in `mask`; returns how
 * many were added. The sum is exact (no overflow is possible below 2^63 additions). */
int realmdb_sum_int64x64(const void *values, uint64_t mask, realmdb_int128_t *sum);

/* The sum of the doubles among the 64 at `values` whose bit is set in `mask`. Value i is added to
 * lane i % 4, in order, and the lanes are then added as (0 + 1) + (2 + 3): the result is the same
 * with or without AVX2, but its last bits may differ from a left-to-right sum's. */
double realmdb_sum_doublex64(const void *values, uint64_t mask);

/* Packed ints (a column block of layout 4, docs/FORMAT.md) store unsigned offsets of `width`
 * bytes (1, 2 or 4) from the block's base. Bit i of the result is set when the i-th of the 64
 * offsets at `values` compares true against `constant`, itself an offset (below 2^(8 * width)). */
uint64_t realmdb_compare_packedx64(const void *values, int width, realmdb_comparison_t op, uint64_t constant);

/* The sum of the offsets among the 64 at `values` whose bit is set in `mask` (at most 64 * 2^32). */
uint64_t realmdb_sum_packedx64(const void *values, int width, uint64_t mask);

/* Whether the kernels may use SIMD instructions the CPU has (the default). Turning it off makes
 * them use their portable loops, which give the same results: tests compare the two. Returns the
 * previous setting. */
int realmdb_column_kernels_use_simd(int enabled);

/* Asks the CPU to start loading the cache line of `address` (a hint: no fault, no effect on
 * results), so that the loads of several independent places overlap instead of waiting in turn. */
static inline void realmdb_prefetch(const void *address) { __builtin_prefetch(address); }

#endif
