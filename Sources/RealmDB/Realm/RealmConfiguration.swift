import CoreEngine
import Foundation

extension Realm {
    /// How to open a realm: which file, which classes, which schema version and how to migrate.
    ///
    /// ```swift
    /// var configuration = Realm.Configuration(objectTypes: [Dog.self, Person.self])
    /// configuration.fileURL = URL(fileURLWithPath: "/var/lib/app/dogs.realm")
    /// let realm = try Realm(configuration: configuration)
    /// ```
    public struct Configuration {
        /// What `Realm()` opens. Set its `objectTypes` once at startup so that `Realm()` knows the
        /// classes (Swift on Linux cannot list a program's classes the way Realm's SDK does on Apple systems).
        nonisolated(unsafe) public static var defaultConfiguration = Configuration()

        /// The file. Default: `default.realm` in the current directory. Setting it clears `inMemoryIdentifier`.
        public var fileURL: URL? {
            didSet { if fileURL != nil { storage = .file } }
        }
        /// A realm kept in memory, shared by the handles of this process that name the same
        /// identifier, and gone when the last closes. Setting it clears `fileURL`.
        public var inMemoryIdentifier: String? {
            didSet { if inMemoryIdentifier != nil { fileURL = nil; storage = .memory } }
        }
        /// Open without writing; the file must exist and its schema must need no change.
        public var readOnly = false
        /// The version of the classes' schema. Raise it when the classes change in a way the file
        /// cannot follow by itself, and give a `migrationBlock`.
        public var schemaVersion: UInt64 = 0
        /// Runs inside the opening write when `schemaVersion` is higher than the file's, with the
        /// file's old schema version.
        public var migrationBlock: MigrationBlock?
        /// When the classes need a migration, delete the file and start empty instead.
        public var deleteRealmIfMigrationNeeded = false
        /// The classes in the realm (the classes they link to are added). nil opens the file with
        /// the schema it has, and uses `defaultConfiguration`'s classes for `Realm()`.
        public var objectTypes: [Object.Type]?
        /// The most versions readers may pin at once; a write beyond fails with `.tooManyActiveVersions`.
        public var maximumNumberOfActiveVersions: UInt?
        /// Asked, when a file that no process has open is opened, with its size and the bytes in
        /// use: true compacts the file first.
        public var shouldCompactOnLaunch: ((_ totalBytes: Int, _ usedBytes: Int) -> Bool)?

        private enum Storage { case file, memory }
        private var storage = Storage.file

        /// A configuration with the given values; an `inMemoryIdentifier`, when given, is used instead of `fileURL`.
        public init(fileURL: URL? = nil, inMemoryIdentifier: String? = nil, readOnly: Bool = false,
                    schemaVersion: UInt64 = 0, migrationBlock: MigrationBlock? = nil,
                    deleteRealmIfMigrationNeeded: Bool = false,
                    shouldCompactOnLaunch: ((Int, Int) -> Bool)? = nil,
                    objectTypes: [Object.Type]? = nil) {
            self.fileURL = fileURL
            self.readOnly = readOnly
            self.schemaVersion = schemaVersion
            self.migrationBlock = migrationBlock
            self.deleteRealmIfMigrationNeeded = deleteRealmIfMigrationNeeded
            self.shouldCompactOnLaunch = shouldCompactOnLaunch
            self.objectTypes = objectTypes
            if let inMemoryIdentifier {
                self.inMemoryIdentifier = inMemoryIdentifier
                storage = .memory
            }
        }

        /// The engine's path: the file, or the in-memory identifier.
        var path: String {
            if storage == .memory, let inMemoryIdentifier { return inMemoryIdentifier }
            return (fileURL ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("default.realm")).path
        }

        var isInMemory: Bool { storage == .memory && inMemoryIdentifier != nil }

        /// What identifies a thread's handle of the same realm.
        var cacheKey: String { (isInMemory ? "memory:" : "file:") + path }

        /// The declared schema (nil: the file's) and the model classes by schema name.
        func resolvedSchema() throws(RealmError) -> (Schema?, [String: Object.Type]) {
            guard let objectTypes = objectTypes ?? Configuration.defaultConfiguration.objectTypes else { return (nil, [:]) }
            let key = objectTypes.map(ObjectIdentifier.init)
            if let known = Self.resolvedSchemas.withLock({ $0[key] }) { return known }
            let (schema, types) = try ObjectSchemaDiscovery.schemaAndClasses(of: objectTypes)
            Self.resolvedSchemas.withLock { $0[key] = (schema, types) }
            return (schema, types)
        }

        /// The schemas of the lists of classes configurations have named (a class's schema
        /// never changes while the program runs).
        private static let resolvedSchemas = LockedValue<[[ObjectIdentifier]: (Schema?, [String: Object.Type])]>([:])

        func openEngine(schema: Schema?) throws(RealmError) -> CoreEngine.Realm {
            var engineConfiguration = RealmConfiguration(path: path)
            engineConfiguration.inMemory = isInMemory
            engineConfiguration.readOnly = readOnly
            engineConfiguration.schema = schema
            engineConfiguration.schemaVersion = schemaVersion
            engineConfiguration.maxActiveVersions = UInt64(maximumNumberOfActiveVersions ?? 0)
            if let migrationBlock {
                let types = (try? resolvedSchema().1) ?? [:]
                engineConfiguration.migration = { migration, oldVersion in
                    migrationBlock(Migration(migration, types: types), oldVersion)
                }
            }
            if let shouldCompactOnLaunch {
                engineConfiguration.shouldCompactOnLaunch = { space in shouldCompactOnLaunch(space.fileBytes, space.usedBytes) }
            }
            do {
                return try translatingErrors { try CoreEngine.Realm(configuration: engineConfiguration) }
            } catch where error.code == .migrationRequired && deleteRealmIfMigrationNeeded && !isInMemory {
                try Realm.deleteFiles(atPath: path)
                return try translatingErrors { try CoreEngine.Realm(configuration: engineConfiguration) }
            }
        }
    }

    /// Called to migrate a realm's objects when its schema version rises.
    public typealias MigrationBlock = (_ migration: Migration, _ oldSchemaVersion: UInt64) -> Void

    /// Deletes a realm's file and its lock file. The realm must not be open in any process.
    /// - Returns: whether there was a file to delete.
    @discardableResult
    public static func deleteFiles(for configuration: Configuration) throws(RealmError) -> Bool {
        try deleteFiles(atPath: configuration.path)
    }

    @discardableResult
    static func deleteFiles(atPath path: String) throws(RealmError) -> Bool {
        var deleted = false
        for file in [path, path + "-lock"] where FileManager.default.fileExists(atPath: file) {
            do {
                try FileManager.default.removeItem(atPath: file)
                deleted = true
            } catch {
                throw RealmError(.fileAccess, "cannot delete '\(file)': \(error.localizedDescription)")
            }
        }
        return deleted
    }
}

/// A configuration is handed to the library's notifier threads, which open the realm with it:
/// its functions (migration, compaction) run on the opening thread, one open at a time.
extension Realm.Configuration: @unchecked Sendable {}
