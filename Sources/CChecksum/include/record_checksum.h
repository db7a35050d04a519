/*
 * record_checksum.h: the checksums that make damage to a realm file an error.
 *
 * LMDB does no checksums. realmdb seals every record it stores: column blocks, meta records and
 * change records end with a 4-byte CRC32C (Castagnoli) of the record's key followed by its
 * payload; index and backlink entries carry a 16-bit check in the low bits of their 8-byte value
 * (see docs/FORMAT.md, "Checksums"). The CRC uses the CPU's CRC32 instruction where there is one
 * (SSE 4.2 on x86-64, the CRC extension on ARMv8) and a table otherwise.
 *
 * Large records (column blocks of a cluster) are read far more often than they change, so a
 * process remembers which records it has verified: a record at the same address, of the same
 * length, under the same key and with the same stored checksum is not summed again. The memory
 * is a fixed table of fingerprints (2 MiB of address space, touched as it fills); a fingerprint
 * lost to a collision only costs one more verification.
 */
#ifndef REALMDB_RECORD_CHECKSUM_H
#define REALMDB_RECORD_CHECKSUM_H

#include <stddef.h>
#include <stdint.h>

/* Size of the trailer a sealed record ends with. */
#define REALMDB_SEAL_SIZE 4

/* Extends a CRC32C over `length` bytes: start with crc 0; crc(a then b) = realmdb_crc32c(realmdb_crc32c(0, a), b). */
uint32_t realmdb_crc32c(uint32_t crc, const void *data, size_t length);

/* Writes the trailer of a record: `record` holds `payload_length` payload bytes followed by
 * REALMDB_SEAL_SIZE bytes of room, which receive the CRC32C of key then payload (little-endian). */
void realmdb_seal_record(const void *key, size_t key_length, void *record, size_t payload_length);

/* Whether a sealed record (payload and trailer, `record_length` bytes in all) matches its trailer.
 * With `use_memory` nonzero a record this process verified before, at the same address, is not
 * summed again (see above); 0 sums it in any case (a whole-file check). */
int realmdb_sealed_record_is_intact(const void *key, size_t key_length, const void *record,
                                    size_t record_length, int use_memory);

/* The 16-bit check of an index entry: a fold of the CRC32C of its key then the 8 big-endian bytes
 * of the object key. */
uint16_t realmdb_index_entry_check(const void *key, size_t key_length, uint64_t object_key);

#endif
