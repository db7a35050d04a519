/// Upgrading a file of format 1 (records without seals) to format 2 (every record sealed; see
/// docs/FORMAT.md, "Checksums"). Runs inside the first write transaction that meets such a file,
/// so the upgrade commits with that write or not at all; readers of format 1 read it unsealed
/// until then.
extension StorageTransaction {
    /// Records rewritten per pass: bounds the memory an upgrade holds at once.
    private static let upgradeBatch = 4096

    func upgradeFormat1() throws {
        try requireWrite()
        let env = environment
        for dbi in [env.metaDB, env.blocksDB, env.changesDB] {
            // Each pass reads a batch unsealed and writes it back sealed, resuming after its last key.
            var resume: [UInt8]?
            while true {
                var batch: [(key: [UInt8], value: [UInt8])] = []
                lmdb.sealsRecords = false
                try lmdb.scan(dbi, prefix: [], from: resume, opened: false) { key, value in
                    if let resume, key.elementsEqual(resume) { return true }
                    batch.append((Array(key), Array(value)))
                    return batch.count < Self.upgradeBatch
                }
                guard let last = batch.last else { break }
                lmdb.sealsRecords = true
                for (key, value) in batch { try lmdb.put(dbi, key, value) }
                resume = last.key
            }
        }
        // Index entries: every duplicate of a key is replaced at once, a key at a time, resuming
        // at the first key after the last one done (so no key is read in both forms).
        var resume: [UInt8]?
        while true {
            var entries: [(key: [UInt8], objectKeys: [[UInt8]])] = []
            var count = 0
            lmdb.sealsRecords = false
            try lmdb.scan(env.indexDB, prefix: [], from: resume, opened: false) { key, value in
                if let last = entries.last, last.key.elementsEqual(key) {
                    entries[entries.count - 1].objectKeys.append(Array(value))
                } else {
                    if count >= Self.upgradeBatch { return false }
                    entries.append((Array(key), [Array(value)]))
                }
                count += 1
                return true
            }
            guard let last = entries.last else { break }
            for entry in entries { try lmdb.delete(env.indexDB, entry.key) }
            lmdb.sealsRecords = true
            for entry in entries {
                for objectKey in entry.objectKeys { try lmdb.put(env.indexDB, entry.key, objectKey) }
            }
            resume = last.key + [0]
        }
        lmdb.sealsRecords = true
        try lmdb.put(env.metaDB, StorageKeys.formatKey, Self.formatMagic)
    }
}
