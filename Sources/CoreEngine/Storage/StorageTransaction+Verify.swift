/// What a whole-file check read (see `StorageTransaction.verify`).
package struct FileCheckReport: Equatable, Sendable {
    /// Classes (tables) checked.
    package var classes = 0
    /// Live objects found through the presence bitmaps (and matching each class's counter).
    package var objects = 0
    /// Stored values read: one per object and stored property; a collection counts once.
    package var values = 0
    /// Column blocks decoded.
    package var blocks = 0
    /// Entries of single-property indexes confirmed against the values they index.
    package var indexEntries = 0
}

/// Reading a whole file to find damage that reads would otherwise meet later (or never notice):
/// every record is decoded and checked against the schema, the counters, the links and the
/// indexes. LMDB's own structure is walked along the way (every block and index entry is
/// reached through its B-trees, under the guard, so a damaged page is an error here).
///
/// Every record's seal is checked too, summed afresh (not taken from the memory of records this
/// process verified before): compound index entries, backlink entries and change records are
/// covered by their seals only, not yet checked against the data.
extension StorageTransaction {
    /// Checks every class of the file. `progress(done, total)` is called before each class.
    /// - Throws: `.fileFormat` naming the first damage found: which class, property, object or
    ///   index, and what is wrong with it.
    func verify(progress: (Int, Int) -> Void = { _, _ in }) throws -> FileCheckReport {
        var report = FileCheckReport()
        lmdb.remembersVerifiedRecords = false
        defer { lmdb.remembersVerifiedRecords = true }
        let tables = storedSchema.tables
        for (done, table) in tables.enumerated() {
            progress(done, tables.count)
            try verify(table, into: &report)
        }
        progress(tables.count, tables.count)
        try verifyBlockKeys(into: &report)
        try verifySeals()
        return report
    }

    /// Reads every record of the meta, change and index databases, checking its seal (blocks are
    /// checked as `verifyBlockKeys` reads them).
    private func verifySeals() throws {
        let env = environment
        for dbi in [env.metaDB, env.changesDB, env.indexDB] {
            try lmdb.scan(dbi, prefix: []) { _, _ in true }
        }
    }

    private func damaged(_ what: String) -> DBError {
        DBError(.fileFormat, "the file is damaged: \(what) (restore it from a copy)")
    }

    private func verify(_ table: StoredTable, into report: inout FileCheckReport) throws {
        report.classes += 1
        var keys: [Int64] = []
        try forEachObjectKey(table: table.id) { keys.append($0) }
        let counted = Int(try counters(table.id).count)
        guard counted == keys.count else {
            throw damaged("class '\(table.name)' counts \(counted) objects, but its presence bitmaps hold \(keys.count)")
        }
        report.objects += keys.count
        for stored in table.columns where stored.isStored {
            let column = ColumnSpec(stored)
            let name = "'\(table.name).\(stored.name)'"
            for key in keys {
                let slot = try slotValue(table: table.id, column: column, key: key)
                try verifySlot(slot, column, name: name, key: key)
                report.values += 1
            }
            if column.isIndexed {
                report.indexEntries += try verifyIndex(table: table.id, column: column, name: name, objects: keys.count)
            }
        }
    }

    /// Walks a single-property index once: every entry must name a live object whose value it
    /// encodes, and there must be as many entries as objects. LMDB keeps each (value, object)
    /// pair once, so an object with two entries would need two values: together the checks mean
    /// exactly one entry per object, with its value. (Looking each object's value up instead
    /// costs a pass over that value's duplicates per object: quadratic for a column of few values.)
    /// - Returns: the entries checked.
    private func verifyIndex(table: UInt32, column: ColumnSpec, name: String, objects: Int) throws -> Int {
        let prefix = StorageKeys.blockPrefix(table: table, column: column.id)
        var entries = 0
        var expected = prefix
        var failure: DBError?
        try lmdb.scan(environment.indexDB, prefix: prefix) { entryKey, entryValue in
            entries += 1
            guard entryValue.count == 8 else {
                failure = damaged("the index of \(name) has an entry of \(entryValue.count) bytes")
                return false
            }
            let key = Int64(bitPattern: UInt64(bigEndian: entryValue.loadUnaligned(as: UInt64.self)))
            guard try objectExists(table: table, key: key) else {
                failure = damaged("the index of \(name) has an entry for object \(key), which does not exist")
                return false
            }
            let slot = try slotValue(table: table, column: column, key: key)
            expected.removeSubrange(prefix.count...)
            _ = IndexKeyEncoding.encode(slot, into: &expected)
            guard expected.elementsEqual(entryKey) else {
                failure = damaged("the index of \(name) has an entry for object \(key) that is not its value (\(slot))")
                return false
            }
            return true
        }
        if let failure { throw failure }
        if entries < objects, let missing = try objectWithoutIndexEntry(table: table, prefix: prefix) {
            let value = try slotValue(table: table, column: column, key: missing)
            throw damaged("the index of \(name) has no entry for object \(missing) (value \(value))")
        }
        guard entries == objects else {
            throw damaged("the index of \(name) has \(entries) entries for \(objects) objects")
        }
        return entries
    }

    /// The first object that an index (entries under `prefix`) has no entry for: the message of
    /// a check that found too few entries (a second pass, on damaged files only).
    private func objectWithoutIndexEntry(table: UInt32, prefix: [UInt8]) throws -> Int64? {
        var indexed = Set<Int64>()
        try lmdb.scan(environment.indexDB, prefix: prefix) { _, entryValue in
            if entryValue.count == 8 { indexed.insert(Int64(bitPattern: UInt64(bigEndian: entryValue.loadUnaligned(as: UInt64.self)))) }
            return true
        }
        var missing: Int64?
        try forEachObjectKey(table: table) { key in
            if missing == nil && !indexed.contains(key) { missing = key }
        }
        return missing
    }

    /// Checks one stored slot: text is UTF-8, encoded values decode, links lead to live objects.
    private func verifySlot(_ slot: Value, _ column: ColumnSpec, name: String, key: Int64) throws {
        func fail(_ what: String) -> DBError { damaged("\(name) of object \(key) \(what)") }
        switch (column.kind, slot) {
        case let (.link(target), .int(linked)):
            guard try objectExists(table: target, key: linked) else { throw fail("links to object \(linked), which does not exist") }
        case let (.mixed, .data(bytes)):
            do { _ = try PackedValues.decodeValue(bytes) } catch { throw fail("holds an undecodable value") }
        case let (.collection(_, element, target), .data(bytes)) where !bytes.isEmpty:
            let contents: [Value]
            do { contents = try PackedValues.decode(bytes) } catch { throw fail("holds an undecodable collection") }
            guard element == .object else { return }
            for case let .link(link) in contents where !(try objectExists(table: target, key: link.key)) {
                throw fail("lists object \(link.key), which does not exist")
            }
        default:
            break
        }
    }

    /// Every stored block belongs to a class and property of the schema and decodes.
    private func verifyBlockKeys(into report: inout FileCheckReport) throws {
        var problem: String?
        try lmdb.scan(environment.blocksDB, prefix: []) { key, value in
            guard key.count == 16 else { problem = "a block key of \(key.count) bytes"; return false }
            let tableID = UInt32(bigEndian: key.loadUnaligned(as: UInt32.self))
            let columnID = UInt32(bigEndian: key.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
            guard let table = storedSchema.table(id: tableID) else {
                problem = "a block of class id \(tableID), which the schema does not have"
                return false
            }
            guard columnID == StorageKeys.presenceColumn || table.columns.contains(where: { $0.id == columnID }) else {
                problem = "a block of property id \(columnID) of class '\(table.name)', which the schema does not have"
                return false
            }
            if columnID == StorageKeys.presenceColumn {
                do { _ = try PresenceBitmap(value) } catch { problem = "a damaged presence block of class '\(table.name)'"; return false }
                report.blocks += 1
                return true
            }
            let column = table.columns.first { $0.id == columnID }!
            let view: ColumnBlockView
            do { view = try ColumnBlockView(value) } catch {
                problem = "a damaged block of '\(table.name).\(column.name)'"
                return false
            }
            guard view.fits(ColumnSpec(column).type) else {
                problem = "a block of '\(table.name).\(column.name)' whose layout (\(view.layout), \(view.width) bytes) does not fit its type"
                return false
            }
            // Text must be UTF-8 (reading repairs bad sequences silently, so check the bytes).
            if ColumnSpec(column).type == .string && view.layout == .variable {
                for slot in 0..<view.count where !view.isNull(slot) {
                    guard String(validating: view.variableBytes(slot), as: UTF8.self) != nil else {
                        problem = "'\(table.name).\(column.name)' holds text that is not UTF-8"
                        return false
                    }
                }
            }
            report.blocks += 1
            return true
        }
        if let problem { throw damaged(problem) }
    }
}
