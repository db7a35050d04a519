/// Opening: reconciling the declared schema with the file's, running migrations.
extension Realm {
    /// Binds the declared schema, changing the file's schema first when needed (in one write).
    func openSchema() throws {
        let environment = try requireOpen()
        let snapshot = try StorageTransaction(environment: environment, write: false)
        guard let declared = configuration.schema else {
            // Dynamic open: use whatever the file has.
            try bind(snapshot.storedSchema, declared: snapshot.storedSchema.schema)
            transaction = snapshot
            return
        }
        let plan = SchemaPlan(stored: snapshot.storedSchema, declared: declared)
        let needsWrite = plan.hasChanges || !snapshot.isInitialized
            || configuration.schemaVersion != snapshot.storedSchema.schemaVersion
        if !needsWrite {
            try bind(snapshot.storedSchema, declared: declared)
            transaction = snapshot
            return
        }
        try validateVersion(stored: snapshot.storedSchema, plan: plan, isNewFile: !snapshot.isInitialized)
        if configuration.readOnly {
            throw DBError(.readOnly, snapshot.isInitialized
                ? "the realm was opened read-only but its schema or schema version differs from the file's; open it writable once to apply the change"
                : "the realm was opened read-only but the file has no realmdb data")
        }
        snapshot.abort()
        try migrate(declared: declared, environment: environment)
    }
}
