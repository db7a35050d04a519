/// Backlinks: for every link, an entry in the "index" database under the linked object, so that
/// deleting an object can find and clear the links to it, and linkingObjects properties can be
/// computed without scanning.
///
/// Entry key: target table u32 | link column id u32 | target object key u64 (big-endian); its
/// duplicate values are the keys of the objects whose column links there (once per object, however
/// many times its collection holds the link). Column ids are unique in the file, so these entries
/// never share a prefix with the target table's own indexes.
extension StorageTransaction {
    private func withBacklinkKey<R>(_ target: ObjectLink, column: UInt32, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let raw = (target.table.bigEndian, column.bigEndian, UInt64(bitPattern: target.key).bigEndian)
        return try withUnsafeBytes(of: raw) { try body($0) }
    }

    func addBacklink(to target: ObjectLink, column: UInt32, origin: Int64) throws {
        let dbi = environment.indexDB
        try withBacklinkKey(target, column: column) { key in
            try withUnsafeBytes(of: UInt64(bitPattern: origin).bigEndian) { try lmdb.put(dbi, key, $0) }
        }
    }

    func removeBacklink(to target: ObjectLink, column: UInt32, origin: Int64) throws {
        let dbi = environment.indexDB
        try withBacklinkKey(target, column: column) { key in
            _ = try withUnsafeBytes(of: UInt64(bitPattern: origin).bigEndian) { try lmdb.delete(dbi, key, value: $0) }
        }
    }

    /// Keys of the objects whose `column` links to `target`, ascending.
    func backlinks(to target: ObjectLink, column: UInt32) throws -> [Int64] {
        var keys: [Int64] = []
        let prefix = withBacklinkKey(target, column: column) { Array($0) }
        try lmdb.scan(environment.indexDB, prefix: prefix) { key, value in
            guard key.count == prefix.count, value.count == 8 else { return false }
            keys.append(Int64(bitPattern: UInt64(bigEndian: value.loadUnaligned(as: UInt64.self))))
            return true
        }
        return keys
    }

    /// Every column of the file that may hold links to objects of `table`, with its table.
    func linkingColumns(to table: UInt32) -> [(table: UInt32, column: ColumnSpec)] {
        if let cached = linkingColumnCache[FastID(table)] { return cached }
        var result: [(table: UInt32, column: ColumnSpec)] = []
        for origin in storedSchema.tables {
            for stored in origin.columns where stored.isStored {
                let spec = ColumnSpec(stored)
                if spec.canLink(to: table) { result.append((origin.id, spec)) }
            }
        }
        linkingColumnCache[FastID(table)] = result
        return result
    }

    /// How many links point to an object (each linking object counted once per column).
    func backlinkCount(to target: ObjectLink) throws -> Int {
        var count = 0
        for (_, column) in linkingColumns(to: target.table) { count += try backlinkCount(to: target, column: column.id) }
        return count
    }

    /// How many objects link to `target` through `column` (each once, however often it links).
    func backlinkCount(to target: ObjectLink, column: UInt32) throws -> Int {
        try withBacklinkKey(target, column: column) { try lmdb.duplicateCount(environment.indexDB, Array($0)) }
    }

    /// The links a value holds (a link, or a mixed holding one).
    func links(in value: Value) -> [ObjectLink] {
        if case let .link(link) = value { return [link] }
        return []
    }

    func isEmbedded(table: UInt32) -> Bool { storedSchema.table(id: table)?.isEmbedded ?? false }

    /// Keeps backlinks in step when an object's link-holding column goes from `old` to `new` links,
    /// and deletes embedded objects that lose their parent.
    func replaceLinks(from old: [ObjectLink], to new: [ObjectLink], table: UInt32, column: UInt32, key: Int64) throws {
        let oldSet = Set(old), newSet = Set(new)
        guard oldSet != newSet else { return }
        for link in oldSet.subtracting(newSet) {
            try removeBacklink(to: link, column: column, origin: key)
            if isEmbedded(table: link.table), try objectExists(table: link.table, key: link.key) {
                try deleteObject(table: link.table, key: link.key)
            }
        }
        for link in newSet.subtracting(oldSet) {
            try addBacklink(to: link, column: column, origin: key)
        }
    }

    /// Clears every link to an object that is being deleted: to-one links and mixed values become
    /// null, collections drop the object (dictionaries keep the key with a null value, as Realm's).
    func removeLinks(to target: ObjectLink) throws {
        for (originTable, column) in linkingColumns(to: target.table) {
            let origins = try backlinks(to: target, column: column.id)
            guard !origins.isEmpty else { continue }
            for origin in origins where try objectExists(table: originTable, key: origin) {
                switch column.kind {
                case .link, .mixed:
                    try writeSlot(.null, table: originTable, column: column, key: origin)
                case let .collection(kind, _, _):
                    var contents = try collection(table: originTable, column: column, key: origin)
                    if kind == .dictionary {
                        for i in stride(from: 1, to: contents.count, by: 2) where contents[i] == .link(target) { contents[i] = .null }
                    } else {
                        contents.removeAll { $0 == .link(target) }
                    }
                    try storeCollection(contents, table: originTable, column: column, key: origin)
                case .scalar, .backlinks:
                    continue
                }
                changes.recordModification(table: originTable, column: column.id, key: origin)
            }
            let dbi = environment.indexDB
            try withBacklinkKey(target, column: column.id) { _ = try lmdb.delete(dbi, $0) }
        }
    }

    /// Removes the backlinks of an object's own links before it is deleted, deleting the embedded
    /// objects it owns.
    func removeOutgoingLinks(table: UInt32, columns: [ColumnSpec], key: Int64) throws {
        for column in columns where column.holdsLinks {
            let held: [ObjectLink]
            switch column.kind {
            case .collection:
                held = try collection(table: table, column: column, key: key).flatMap(links(in:))
            default:
                held = links(in: try value(table: table, column: column, key: key))
            }
            try replaceLinks(from: held, to: [], table: table, column: column.id, key: key)
        }
    }
}
