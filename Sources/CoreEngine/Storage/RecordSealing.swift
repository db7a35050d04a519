import CChecksum
import CLMDB

/// How the records of one LMDB database are sealed against damage (docs/FORMAT.md, "Checksums").
///
/// LMDB stores bytes without checksums, so a flipped bit inside a stored number would read back
/// as another number. Every record the engine writes is sealed, and every record it reads is
/// checked, in `LMDBTransaction`: nothing above it sees a seal.
enum RecordSealing {
    /// The value ends with a 4-byte CRC32C of the key and the payload (`meta`, `blocks`, `changes`).
    case trailer
    /// Each 8-byte duplicate value holds an object key in its high 48 bits and a 16-bit check of
    /// the entry's key and the object key in its low 16 bits (`index`: search indexes, backlinks).
    case objectKeyCheck

    /// The largest object key an index entry can hold.
    static let maxIndexedObjectKey: Int64 = (1 << 47) - 1

    /// The stored duplicate value of an index entry, big-endian.
    static func sealedIndexValue(key: UnsafeRawBufferPointer, objectKey: UInt64) -> UInt64 {
        let check = realmdb_index_entry_check(key.baseAddress, key.count, objectKey)
        return (objectKey << 16 | UInt64(check)).bigEndian
    }

    /// The object key of a stored index value, or nil when its check does not match.
    static func objectKey(key: UnsafeRawBufferPointer, sealedValue: UnsafeRawBufferPointer) -> UInt64? {
        guard sealedValue.count == 8 else { return nil }
        let stored = UInt64(bigEndian: sealedValue.loadUnaligned(as: UInt64.self))
        let objectKey = stored >> 16
        guard UInt16(truncatingIfNeeded: stored) == realmdb_index_entry_check(key.baseAddress, key.count, objectKey) else {
            return nil
        }
        return objectKey
    }
}

extension LMDBEnvironment {
    /// The sealing of one of this file's databases.
    func sealing(of dbi: MDB_dbi) -> RecordSealing {
        dbi == indexDB ? .objectKeyCheck : .trailer
    }

    /// What a record is, in words: "the block of Person.age for objects 1024-2047".
    func describeRecord(_ dbi: MDB_dbi, key: UnsafeRawBufferPointer, names: StoredSchema?) -> String {
        func u32(_ offset: Int) -> UInt32 { UInt32(bigEndian: key.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) }
        func className(_ table: UInt32) -> String { names?.className(table: table).map { "'\($0)'" } ?? "class #\(table)" }
        func columnName(_ table: UInt32, _ column: UInt32) -> String {
            if let cls = names?.className(table: table), let prop = names?.propertyName(table: table, column: column) {
                return "'\(cls).\(prop)'"
            }
            return "property #\(column) of \(className(table))"
        }
        switch dbi {
        case blocksDB where key.count == 16:
            let table = u32(0), column = u32(4)
            let cluster = Int64(bitPattern: UInt64(bigEndian: key.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
            let first = cluster << Int64(StorageKeys.clusterShift), last = first + Int64(StorageKeys.clusterMask)
            if column == StorageKeys.presenceColumn {
                return "the list of live objects \(first)-\(last) of \(className(table))"
            }
            return "the block of \(columnName(table, column)) for objects \(first)-\(last)"
        case indexDB where key.count >= 8:
            return "an index entry of \(columnName(u32(0), u32(4)))"
        case changesDB where key.count == 8:
            return "the change record of version \(UInt64(bigEndian: key.loadUnaligned(as: UInt64.self)))"
        case metaDB where key.count == 6 && key.starts(with: "t/".utf8):
            return "the object counters of \(className(u32(2)))"
        case metaDB:
            let name = String(decoding: key.prefix(32), as: UTF8.self).filter { $0.isASCII && !$0.isNewline }
            return "the '\(name)' record"
        default:
            return "a record of \(key.count) key bytes"
        }
    }
}
