/*
 * crc32c.c: CRC32C (Castagnoli, reflected polynomial 0x82F63B78), as iSCSI, ext4 and LevelDB use
 * it: the CPU's CRC32 instruction where there is one, else a byte-wise table.
 */
#include "record_checksum.h"

#include <pthread.h>
#include <string.h>

static uint32_t table[256];
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static void build_table(void) {
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++) c = (c >> 1) ^ (0x82F63B78u & (0u - (c & 1)));
        table[i] = c;
    }
}

static uint32_t crc32c_table(uint32_t state, const unsigned char *p, size_t n) {
    pthread_once(&table_once, build_table);
    while (n--) state = table[(state ^ *p++) & 0xFF] ^ (state >> 8);
    return state;
}

/* The CPU's instructions: one step over 8 bytes (STEP64) and over one byte (STEP8), and where they
 * are, HARDWARE_TARGET for the function that uses them and has_hardware() to ask at run time. */
#if defined(__x86_64__)
#include <nmmintrin.h>
#define HARDWARE_TARGET __attribute__((target("sse4.2")))
#define STEP64(state, word) ((uint32_t)_mm_crc32_u64((state), (word)))
#define STEP8(state, byte) _mm_crc32_u8((state), (byte))

static int has_hardware(void) {
    static int known = -1;
    int value = __atomic_load_n(&known, __ATOMIC_RELAXED);
    if (value < 0) {
        __builtin_cpu_init();
        value = __builtin_cpu_supports("sse4.2") ? 1 : 0;
        __atomic_store_n(&known, value, __ATOMIC_RELAXED);
    }
    return value;
}
#elif defined(__aarch64__) && defined(__ARM_FEATURE_CRC32)
#include <arm_acle.h>
#define HARDWARE_TARGET
#define STEP64(state, word) __crc32cd((state), (word))
#define STEP8(state, byte) __crc32cb((state), (byte))

static int has_hardware(void) { return 1; }
#endif

#ifdef STEP64
HARDWARE_TARGET
static uint32_t crc32c_hardware(uint32_t state, const unsigned char *p, size_t n) {
    for (; n >= 8; p += 8, n -= 8) {
        uint64_t word;
        memcpy(&word, p, 8);
        state = STEP64(state, word);
    }
    while (n--) state = STEP8(state, *p++);
    return state;
}
#else
static uint32_t crc32c_hardware(uint32_t state, const unsigned char *p, size_t n) {
    return crc32c_table(state, p, n);
}

static int has_hardware(void) { return 0; }
#endif

uint32_t realmdb_crc32c(uint32_t crc, const void *data, size_t length) {
    uint32_t state = ~crc;
    const unsigned char *p = data;
    state = has_hardware() ? crc32c_hardware(state, p, length) : crc32c_table(state, p, length);
    return ~state;
}
