/// Which writes count as a modification of an observed object: its own properties (all, or those
/// key paths name) and properties of the objects it links to, reached through link, list, set and
/// dictionary properties.
///
/// Without key paths, a collection's objects observe all their properties and, through every link,
/// the objects they link to, to `defaultDepth` links away; an object notification observes only
/// its own properties. With key paths, exactly what they name counts, as the seeds spell out for
/// `["toys"]` (the list itself: insertions, deletions, replacements in it) and `["toys.brand"]`
/// (the list, and the `brand` of the toys in it, but no other property of a toy).
final class ObservedKeyPaths {
    /// How many links away a collection's objects observe, without key paths.
    static let defaultDepth = 4

    /// A chain of links from the observed class to objects whose changes count.
    struct LinkPath {
        /// Each hop: the link column, the table it belongs to, and the table it leads to.
        var hops: [(origin: UInt32, column: ColumnSpec, target: UInt32)]
        /// Columns of the last target that count (nil: all).
        var columns: Set<UInt32>?
    }

    /// The observed class's own columns that count (nil: all).
    let rootColumns: Set<UInt32>?
    let linkPaths: [LinkPath]
    /// Every table whose changes may count (the observed class's first).
    let tables: Set<UInt32>

    private init(root: UInt32, rootColumns: Set<UInt32>?, linkPaths: [LinkPath]) {
        self.rootColumns = rootColumns
        self.linkPaths = linkPaths
        tables = Set([root] + linkPaths.flatMap { $0.hops.map(\.target) })
    }

    /// Everything, to `defaultDepth` links away (collections without key paths).
    static func deep(_ root: ClassInfo, _ classes: ClassLookup) -> ObservedKeyPaths {
        var paths: [LinkPath] = []
        func walk(_ classInfo: ClassInfo, _ prefix: [(origin: UInt32, column: ColumnSpec, target: UInt32)]) {
            guard prefix.count < defaultDepth else { return }
            for property in classInfo.properties where property.type == .object {
                guard let targetTable = property.linkTarget, let target = try? classes.classInfo(tableID: targetTable) else { continue }
                let hops = prefix + [(classInfo.tableID, property.column, targetTable)]
                paths.append(LinkPath(hops: hops, columns: nil))
                walk(target, hops)
            }
        }
        walk(root, [])
        return ObservedKeyPaths(root: root.tableID, rootColumns: nil, linkPaths: paths)
    }

    /// Only the object's own properties (object notifications without key paths).
    static func shallow(_ root: ClassInfo) -> ObservedKeyPaths {
        ObservedKeyPaths(root: root.tableID, rootColumns: nil, linkPaths: [])
    }

    /// Exactly what the key paths name, e.g. `["name", "toys.brand"]`.
    /// - Throws: `.invalidArgument` for an empty key path, an unknown property, or a path that
    ///   goes on past a property that is not a link.
    static func named(_ keyPaths: [String], _ root: ClassInfo, _ classes: ClassLookup) throws -> ObservedKeyPaths {
        var rootColumns = Set<UInt32>()
        var paths: [LinkPath] = []
        for keyPath in keyPaths {
            let names = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard !names.isEmpty, !names.contains(where: \.isEmpty) else {
                throw DBError(.invalidArgument, "'\(keyPath)' is not a key path (names joined by '.')")
            }
            var current = root
            var hops: [(origin: UInt32, column: ColumnSpec, target: UInt32)] = []
            for (i, name) in names.enumerated() {
                guard let property = current.property(named: name) else {
                    throw DBError(.invalidArgument, "key path '\(keyPath)': '\(current.name)' has no property named '\(name)'")
                }
                if hops.isEmpty { rootColumns.insert(property.columnID) }
                if i == names.count - 1 {
                    if !hops.isEmpty {
                        paths.append(LinkPath(hops: hops, columns: [property.columnID]))
                    }
                    break
                }
                guard property.type == .object, let targetTable = property.linkTarget,
                      let target = try? classes.classInfo(tableID: targetTable) else {
                    throw DBError(.invalidArgument, "key path '\(keyPath)': '\(current.name).\(name)' is not a link, so nothing follows it")
                }
                hops.append((current.tableID, property.column, targetTable))
                if i > 0 {
                    // An intermediate link changing counts too (a different object is reached).
                    paths.append(LinkPath(hops: Array(hops.dropLast()), columns: [property.columnID]))
                }
                current = target
            }
        }
        return ObservedKeyPaths(root: root.tableID, rootColumns: rootColumns, linkPaths: paths)
    }

    /// The observed objects (among `candidates`, keys of the observed class) that the changes modify.
    func modifiedKeys(_ changes: CoalescedChanges, root: UInt32, _ transaction: StorageTransaction) throws -> Set<Int64> {
        var keys = changes.tables[root]?.modified(in: rootColumns) ?? []
        for path in linkPaths { keys.formUnion(try keysReaching(path, changes, transaction)) }
        return keys
    }

    /// The observed objects that link, along `path`, to objects the changes modify: the modified
    /// objects at the path's end, walked back one link at a time through the backlinks.
    func keysReaching(_ path: LinkPath, _ changes: CoalescedChanges, _ transaction: StorageTransaction) throws -> Set<Int64> {
        guard let last = path.hops.last, let table = changes.tables[last.target] else { return [] }
        var reached = table.modified(in: path.columns)
        for hop in path.hops.reversed() where !reached.isEmpty {
            var origins = Set<Int64>()
            for key in reached {
                origins.formUnion(try transaction.backlinks(to: ObjectLink(table: hop.target, key: key), column: hop.column.id))
            }
            reached = origins
        }
        return reached
    }
}
