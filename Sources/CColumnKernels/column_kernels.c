/*
 * column_kernels.c: see column_kernels.h. Each kernel has a portable loop and, on x86-64, an AVX2
 * loop chosen at run time; both give the same results.
 */
#include "column_kernels.h"

#include <string.h>

static inline int64_t load_int64(const unsigned char *p) {
    int64_t v;
    memcpy(&v, p, 8);
    return v;
}

static inline double load_double(const unsigned char *p) {
    double v;
    memcpy(&v, p, 8);
    return v;
}

/* ---- portable loops ---------------------------------------------------------------------- */

#define COMPARE_LOOP(load, test)                                         \
    do {                                                                 \
        for (int i = 0; i < 64; i++) {                                   \
            __typeof__(constant) v = load(p + 8 * i);                    \
            bits |= (uint64_t)(test) << i;                               \
        }                                                                \
    } while (0)

static uint64_t compare_int64_portable(const unsigned char *p, realmdb_comparison_t op, int64_t constant) {
    uint64_t bits = 0;
    switch (op) {
    case REALMDB_COMPARE_EQUAL: COMPARE_LOOP(load_int64, v == constant); break;
    case REALMDB_COMPARE_NOT_EQUAL: COMPARE_LOOP(load_int64, v != constant); break;
    case REALMDB_COMPARE_LESS: COMPARE_LOOP(load_int64, v < constant); break;
    case REALMDB_COMPARE_LESS_OR_EQUAL: COMPARE_LOOP(load_int64, v <= constant); break;
    case REALMDB_COMPARE_GREATER: COMPARE_LOOP(load_int64, v > constant); break;
    case REALMDB_COMPARE_GREATER_OR_EQUAL: COMPARE_LOOP(load_int64, v >= constant); break;
    }
    return bits;
}

static uint64_t compare_double_portable(const unsigned char *p, realmdb_comparison_t op, double constant) {
    uint64_t bits = 0;
    switch (op) {
    case REALMDB_COMPARE_EQUAL: COMPARE_LOOP(load_double, v == constant); break;
    case REALMDB_COMPARE_NOT_EQUAL: COMPARE_LOOP(load_double, !(v == constant)); break;
    case REALMDB_COMPARE_LESS: COMPARE_LOOP(load_double, v < constant); break;
    case REALMDB_COMPARE_LESS_OR_EQUAL: COMPARE_LOOP(load_double, v <= constant); break;
    case REALMDB_COMPARE_GREATER: COMPARE_LOOP(load_double, v > constant); break;
    case REALMDB_COMPARE_GREATER_OR_EQUAL: COMPARE_LOOP(load_double, v >= constant); break;
    }
    return bits;
}

static inline uint64_t load_offset(const unsigned char *p, int width, int i) {
    switch (width) {
    case 1: return p[i];
    case 2: { uint16_t v; memcpy(&v, p + 2 * i, 2); return v; }
    default: { uint32_t v; memcpy(&v, p + 4 * i, 4); return v; }
    }
}

#define PACKED_LOOP(test)                                                \
    do {                                                                 \
        for (int i = 0; i < 64; i++) {                                   \
            uint64_t v = load_offset(p, width, i);                       \
            bits |= (uint64_t)(test) << i;                               \
        }                                                                \
    } while (0)

static uint64_t compare_packed_portable(const unsigned char *p, int width, realmdb_comparison_t op, uint64_t constant) {
    uint64_t bits = 0;
    switch (op) {
    case REALMDB_COMPARE_EQUAL: PACKED_LOOP(v == constant); break;
    case REALMDB_COMPARE_NOT_EQUAL: PACKED_LOOP(v != constant); break;
    case REALMDB_COMPARE_LESS: PACKED_LOOP(v < constant); break;
    case REALMDB_COMPARE_LESS_OR_EQUAL: PACKED_LOOP(v <= constant); break;
    case REALMDB_COMPARE_GREATER: PACKED_LOOP(v > constant); break;
    case REALMDB_COMPARE_GREATER_OR_EQUAL: PACKED_LOOP(v >= constant); break;
    }
    return bits;
}

static double sum_double_portable(const unsigned char *p, uint64_t mask) {
    double lane[4] = {0.0, 0.0, 0.0, 0.0};
    for (int i = 0; i < 64; i++) lane[i & 3] += (mask >> i & 1) ? load_double(p + 8 * i) : 0.0;
    return (lane[0] + lane[1]) + (lane[2] + lane[3]);
}

/* ---- AVX2 loops (x86-64) ----------------------------------------------------------------- */

#if defined(__x86_64__)
#include <immintrin.h>
#define HAVE_AVX2_LOOPS 1
#define AVX2 __attribute__((target("avx2")))

static int simd_allowed = 1;

static int has_avx2(void) {
    static int known = -1;
    int value = __atomic_load_n(&known, __ATOMIC_RELAXED);
    if (value < 0) {
        __builtin_cpu_init();
        value = __builtin_cpu_supports("avx2") ? 1 : 0;
        __atomic_store_n(&known, value, __ATOMIC_RELAXED);
    }
    return value && __atomic_load_n(&simd_allowed, __ATOMIC_RELAXED);
}

/* 4 bits per step: `lanes` holds all ones in the lanes that compare true. */
#define COLLECT_BITS(step)                                               \
    do {                                                                 \
        for (int i = 0; i < 16; i++) {                                   \
            __m256d lanes = (step);                                      \
            bits |= (uint64_t)_mm256_movemask_pd(lanes) << (4 * i);      \
        }                                                                \
    } while (0)

AVX2 static uint64_t compare_int64_avx2(const unsigned char *p, realmdb_comparison_t op, int64_t constant) {
    const __m256i c = _mm256_set1_epi64x(constant);
    uint64_t bits = 0;
#define LOAD(i) _mm256_loadu_si256((const __m256i *)(p + 32 * (i)))
    switch (op) {
    case REALMDB_COMPARE_EQUAL:
    case REALMDB_COMPARE_NOT_EQUAL:
        COLLECT_BITS(_mm256_castsi256_pd(_mm256_cmpeq_epi64(LOAD(i), c)));
        return op == REALMDB_COMPARE_EQUAL ? bits : ~bits;
    case REALMDB_COMPARE_GREATER:
    case REALMDB_COMPARE_LESS_OR_EQUAL:
        COLLECT_BITS(_mm256_castsi256_pd(_mm256_cmpgt_epi64(LOAD(i), c)));
        return op == REALMDB_COMPARE_GREATER ? bits : ~bits;
    case REALMDB_COMPARE_LESS:
    case REALMDB_COMPARE_GREATER_OR_EQUAL:
        COLLECT_BITS(_mm256_castsi256_pd(_mm256_cmpgt_epi64(c, LOAD(i))));
        return op == REALMDB_COMPARE_LESS ? bits : ~bits;
    }
#undef LOAD
    return 0;
}

AVX2 static uint64_t compare_double_avx2(const unsigned char *p, realmdb_comparison_t op, double constant) {
    const __m256d c = _mm256_set1_pd(constant);
    uint64_t bits = 0;
#define LOAD(i) _mm256_loadu_pd((const double *)(p + 32 * (i)))
    switch (op) {
    case REALMDB_COMPARE_EQUAL: COLLECT_BITS(_mm256_cmp_pd(LOAD(i), c, _CMP_EQ_OQ)); break;
    case REALMDB_COMPARE_NOT_EQUAL: COLLECT_BITS(_mm256_cmp_pd(LOAD(i), c, _CMP_NEQ_UQ)); break;
    case REALMDB_COMPARE_LESS: COLLECT_BITS(_mm256_cmp_pd(LOAD(i), c, _CMP_LT_OQ)); break;
    case REALMDB_COMPARE_LESS_OR_EQUAL: COLLECT_BITS(_mm256_cmp_pd(LOAD(i), c, _CMP_LE_OQ)); break;
    case REALMDB_COMPARE_GREATER: COLLECT_BITS(_mm256_cmp_pd(LOAD(i), c, _CMP_GT_OQ)); break;
    case REALMDB_COMPARE_GREATER_OR_EQUAL: COLLECT_BITS(_mm256_cmp_pd(LOAD(i), c, _CMP_GE_OQ)); break;
    }
#undef LOAD
    return bits;
}

AVX2 static double sum_double_avx2(const unsigned char *p, uint64_t mask) {
    /* Lane j of step i takes value 4i + j when bit 4i + j of the mask is set. */
    const __m256i lane_bit = _mm256_set_epi64x(8, 4, 2, 1);
    __m256d sum = _mm256_setzero_pd();
    if (mask == ~(uint64_t)0) {
        /* Every value: the same additions without selecting lanes (x & all ones is x). */
        for (int i = 0; i < 16; i++) sum = _mm256_add_pd(sum, _mm256_loadu_pd((const double *)(p + 32 * i)));
        mask = 0;
    }
    for (int i = 0; i < 16 && mask != 0; i++) {
        __m256i nibble = _mm256_set1_epi64x((long long)(mask >> (4 * i) & 15));
        __m256i selected = _mm256_cmpeq_epi64(_mm256_and_si256(nibble, lane_bit), lane_bit);
        __m256d values = _mm256_loadu_pd((const double *)(p + 32 * i));
        sum = _mm256_add_pd(sum, _mm256_and_pd(values, _mm256_castsi256_pd(selected)));
    }
    double lane[4];
    _mm256_storeu_pd(lane, sum);
    return (lane[0] + lane[1]) + (lane[2] + lane[3]);
}

/* Unsigned offsets compared as signed after flipping their top bit. `equal` and `greater` hold
 * all ones in the lanes where value == c and value > c; `step` packs them into `bits`. */
#define PACKED_BITS(eq, gt, lt)                                                                   \
    switch (op) {                                                                                  \
    case REALMDB_COMPARE_EQUAL: return eq;                                                         \
    case REALMDB_COMPARE_NOT_EQUAL: return ~(eq);                                                  \
    case REALMDB_COMPARE_GREATER: return gt;                                                       \
    case REALMDB_COMPARE_LESS_OR_EQUAL: return ~(gt);                                              \
    case REALMDB_COMPARE_LESS: return lt;                                                          \
    case REALMDB_COMPARE_GREATER_OR_EQUAL: return ~(lt);                                           \
    }                                                                                              \
    return 0

AVX2 static uint64_t compare_packed8_avx2(const unsigned char *p, realmdb_comparison_t op, uint64_t constant) {
    const __m256i flip = _mm256_set1_epi8((char)0x80);
    const __m256i c = _mm256_xor_si256(_mm256_set1_epi8((char)(uint8_t)constant), flip);
    uint64_t eq = 0, gt = 0, lt = 0;
    for (int i = 0; i < 2; i++) {
        __m256i v = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(p + 32 * i)), flip);
        eq |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, c)) << (32 * i);
        gt |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpgt_epi8(v, c)) << (32 * i);
        lt |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpgt_epi8(c, v)) << (32 * i);
    }
    PACKED_BITS(eq, gt, lt);
}

/* Two vectors of 16 lanes of 16 bits (all ones or zeros) -> 32 bits, in order. */
AVX2 static inline uint32_t movemask16(__m256i a, __m256i b) {
    return (uint32_t)_mm256_movemask_epi8(_mm256_permute4x64_epi64(_mm256_packs_epi16(a, b), 0xD8));
}

AVX2 static uint64_t compare_packed16_avx2(const unsigned char *p, realmdb_comparison_t op, uint64_t constant) {
    const __m256i flip = _mm256_set1_epi16((short)0x8000);
    const __m256i c = _mm256_xor_si256(_mm256_set1_epi16((short)(uint16_t)constant), flip);
    uint64_t eq = 0, gt = 0, lt = 0;
    for (int i = 0; i < 2; i++) {
        __m256i a = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(p + 64 * i)), flip);
        __m256i b = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(p + 64 * i + 32)), flip);
        eq |= (uint64_t)movemask16(_mm256_cmpeq_epi16(a, c), _mm256_cmpeq_epi16(b, c)) << (32 * i);
        gt |= (uint64_t)movemask16(_mm256_cmpgt_epi16(a, c), _mm256_cmpgt_epi16(b, c)) << (32 * i);
        lt |= (uint64_t)movemask16(_mm256_cmpgt_epi16(c, a), _mm256_cmpgt_epi16(c, b)) << (32 * i);
    }
    PACKED_BITS(eq, gt, lt);
}

AVX2 static uint64_t compare_packed32_avx2(const unsigned char *p, realmdb_comparison_t op, uint64_t constant) {
    const __m256i flip = _mm256_set1_epi32((int)0x80000000u);
    const __m256i c = _mm256_xor_si256(_mm256_set1_epi32((int)(uint32_t)constant), flip);
    uint64_t eq = 0, gt = 0, lt = 0;
    for (int i = 0; i < 8; i++) {
        __m256i v = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(p + 32 * i)), flip);
        eq |= (uint64_t)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(v, c))) << (8 * i);
        gt |= (uint64_t)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(v, c))) << (8 * i);
        lt |= (uint64_t)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(c, v))) << (8 * i);
    }
    PACKED_BITS(eq, gt, lt);
}
#endif

/* ---- entry points ------------------------------------------------------------------------ */

int realmdb_column_kernels_use_simd(int enabled) {
#ifdef HAVE_AVX2_LOOPS
    return __atomic_exchange_n(&simd_allowed, enabled ? 1 : 0, __ATOMIC_RELAXED);
#else
    (void)enabled;
    return 0;
#endif
}

uint64_t realmdb_compare_int64x64(const void *values, realmdb_comparison_t op, int64_t constant) {
#ifdef HAVE_AVX2_LOOPS
    if (has_avx2()) return compare_int64_avx2(values, op, constant);
#endif
    return compare_int64_portable(values, op, constant);
}

uint64_t realmdb_compare_doublex64(const void *values, realmdb_comparison_t op, double constant) {
#ifdef HAVE_AVX2_LOOPS
    if (has_avx2()) return compare_double_avx2(values, op, constant);
#endif
    return compare_double_portable(values, op, constant);
}

double realmdb_sum_doublex64(const void *values, uint64_t mask) {
#ifdef HAVE_AVX2_LOOPS
    if (has_avx2()) return sum_double_avx2(values, mask);
#endif
    return sum_double_portable(values, mask);
}

int realmdb_sum_int64x64(const void *values, uint64_t mask, realmdb_int128_t *sum) {
    const unsigned char *p = values;
    __int128 total = (__int128)(((unsigned __int128)(uint64_t)sum->high << 64) | sum->low);
    for (int i = 0; i < 64; i++) {
        int64_t v = load_int64(p + 8 * i);
        total += (mask >> i & 1) ? v : 0;
    }
    sum->low = (uint64_t)total;
    sum->high = (int64_t)(total >> 64);
    return __builtin_popcountll(mask);
}

uint64_t realmdb_compare_packedx64(const void *values, int width, realmdb_comparison_t op, uint64_t constant) {
#ifdef HAVE_AVX2_LOOPS
    if (has_avx2()) {
        switch (width) {
        case 1: return compare_packed8_avx2(values, op, constant);
        case 2: return compare_packed16_avx2(values, op, constant);
        default: return compare_packed32_avx2(values, op, constant);
        }
    }
#endif
    return compare_packed_portable(values, width, op, constant);
}

uint64_t realmdb_sum_packedx64(const void *values, int width, uint64_t mask) {
    const unsigned char *p = values;
    uint64_t total = 0;
    switch (width) {
    case 1: for (int i = 0; i < 64; i++) total += (mask >> i & 1) ? load_offset(p, 1, i) : 0; break;
    case 2: for (int i = 0; i < 64; i++) total += (mask >> i & 1) ? load_offset(p, 2, i) : 0; break;
    default: for (int i = 0; i < 64; i++) total += (mask >> i & 1) ? load_offset(p, 4, i) : 0; break;
    }
    return total;
}
