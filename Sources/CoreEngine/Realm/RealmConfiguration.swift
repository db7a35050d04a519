/// How to open a realm.
package struct RealmConfiguration {
    /// The file path, or for in-memory realms the identifier shared by handles in this process.
    package var path: String
    /// Keep the realm in a temporary file that is deleted when the last handle to it closes.
    package var inMemory = false
    /// Refuse writes; the file must exist and its schema must not need changes.
    package var readOnly = false
    /// The declared schema; nil opens the file with the schema it has ("dynamic" open).
    package var schema: Schema?
    package var schemaVersion: UInt64 = 0
    /// Maximum number of versions readers may pin at once (0: no limit). A write that would
    /// exceed it fails at `beginWrite` with `.tooManyActiveVersions`.
    package var maxActiveVersions: UInt64 = 0
    /// Called inside the opening write transaction when `schemaVersion` is higher than the file's.
    package var migration: ((Migration, UInt64) throws -> Void)?

    /// Called when a realm file is opened that no process has open (not for in-memory or
    /// read-only realms), with its size and the bytes in use; true replaces the file by its
    /// compacted copy before it opens (see `Realm.writeCopy(toFile:)`). Runs on the opening
    /// thread; it must not open the same file. A throw fails the open and leaves the file as it is.
    package var shouldCompactOnLaunch: ((FileSpace) throws -> Bool)?

    package init(path: String) { self.path = path }
}
