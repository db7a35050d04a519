/// How to open a realm.
public struct RealmConfiguration {
    /// The file path, or for in-memory realms the identifier shared by handles in this process.
    public var path: String
    /// Keep the realm in a temporary file that is deleted when the last handle to it closes.
    public var inMemory = false
    /// Refuse writes; the file must exist and its schema must not need changes.
    public var readOnly = false
    /// The declared schema; nil opens the file with the schema it has ("dynamic" open).
    public var schema: Schema?
    public var schemaVersion: UInt64 = 0
    /// Maximum number of versions readers may pin at once (0: no limit). A write that would
    /// exceed it fails at `beginWrite` with `.tooManyActiveVersions`.
    public var maxActiveVersions: UInt64 = 0
    /// Called inside the opening write transaction when `schemaVersion` is higher than the file's.
    public var migration: ((Migration, UInt64) throws -> Void)?

    public init(path: String) { self.path = path }
}
