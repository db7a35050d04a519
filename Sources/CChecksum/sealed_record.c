/*
 * sealed_record.c: the trailer of a sealed record, the check of an index entry, and the memory
 * of records already verified (see record_checksum.h).
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, which strict C11 (the CMake build) hides */
#include "record_checksum.h"

#include <sys/mman.h>

void realmdb_seal_record(const void *key, size_t key_length, void *record, size_t payload_length) {
    uint32_t crc = realmdb_crc32c(realmdb_crc32c(0, key, key_length), record, payload_length);
    unsigned char *trailer = (unsigned char *)record + payload_length;
    for (int i = 0; i < 4; i++) trailer[i] = (unsigned char)(crc >> (8 * i));
}

static uint32_t stored_seal(const void *record, size_t record_length) {
    const unsigned char *trailer = (const unsigned char *)record + record_length - REALMDB_SEAL_SIZE;
    return (uint32_t)trailer[0] | (uint32_t)trailer[1] << 8 | (uint32_t)trailer[2] << 16 | (uint32_t)trailer[3] << 24;
}

/* Records shorter than this are summed every time: cheaper than consulting the memory. */
#define REMEMBER_FROM 512
/* The memory: a direct-mapped table of 64-bit fingerprints (0 = empty), 2 MiB. Entries are read and
 * written with relaxed atomics: a torn or lost entry only means a record is verified again. */
#define MEMORY_BITS 18
static uint64_t *memory;

static uint64_t *memory_table(void) {
    uint64_t *table = __atomic_load_n(&memory, __ATOMIC_ACQUIRE);
    if (table) return table;
    /* Anonymous pages read as zeros and cost nothing until written: calloc may take the table
     * from the heap and clear all 2 MiB up front (a million instructions, 2 MiB resident, in a
     * process that verifies ten records). */
    size_t size = ((size_t)1 << MEMORY_BITS) * sizeof(uint64_t);
    void *pages = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (pages == MAP_FAILED) return NULL;
    uint64_t *fresh = pages, *expected = NULL;
    if (__atomic_compare_exchange_n(&memory, &expected, fresh, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) return fresh;
    munmap(pages, size);
    return expected;
}

static uint64_t mix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

int realmdb_sealed_record_is_intact(const void *key, size_t key_length, const void *record,
                                    size_t record_length, int use_memory) {
    if (record_length < REALMDB_SEAL_SIZE) return 0;
    size_t payload_length = record_length - REALMDB_SEAL_SIZE;
    uint32_t stored = stored_seal(record, record_length);
    uint32_t key_crc = realmdb_crc32c(0, key, key_length);
    if (!use_memory || record_length < REMEMBER_FROM) {
        return realmdb_crc32c(key_crc, record, payload_length) == stored;
    }
    uint64_t fingerprint = mix((uint64_t)(uintptr_t)record ^ mix((uint64_t)record_length << 32 ^ stored) ^
                               mix((uint64_t)key_crc << 1 ^ key_length));
    if (fingerprint == 0) fingerprint = 1;
    uint64_t *table = memory_table();
    size_t slot = (size_t)(fingerprint >> (64 - MEMORY_BITS));
    if (table && __atomic_load_n(&table[slot], __ATOMIC_RELAXED) == fingerprint) return 1;
    if (realmdb_crc32c(key_crc, record, payload_length) != stored) return 0;
    if (table) __atomic_store_n(&table[slot], fingerprint, __ATOMIC_RELAXED);
    return 1;
}

uint16_t realmdb_index_entry_check(const void *key, size_t key_length, uint64_t object_key) {
    unsigned char bytes[8];
    for (int i = 0; i < 8; i++) bytes[i] = (unsigned char)(object_key >> (56 - 8 * i));
    uint32_t crc = realmdb_crc32c(realmdb_crc32c(0, key, key_length), bytes, 8);
    return (uint16_t)(crc ^ (crc >> 16));
}
