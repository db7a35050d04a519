/// Frozen views: `freeze()` on an object, results or collection gives the same thing read through
/// a frozen realm (`Realm.freeze()`), pinned to the version its realm reads now and usable from any
/// thread; `thaw()` gives the live equivalent in the realm it was frozen from.
extension ObjectAccessor {
    package var isFrozen: Bool { realm.isFrozen }

    /// This object at the version its realm reads now, immutable, usable from any thread.
    /// - Throws: `.invalidated` for a deleted object, `.wrongTransactionState` inside a write.
    package func freeze() throws -> ObjectAccessor {
        if isFrozen { return self }
        guard try isValid() else { throw DBError(.invalidated, "a deleted object cannot be frozen") }
        return ObjectAccessor(realm: try realm.freeze(), classInfo: classInfo, key: key)
    }

    /// The same object read through another handle of the same file (another thread's).
    /// - Throws: `.invalidArgument` for a handle of another file; `.notFound` when it lacks the class.
    package func reopened(in other: Realm) throws -> ObjectAccessor {
        guard other.filePath == realm.filePath else {
            throw DBError(.invalidArgument, "an object can only move to a handle of the same realm file")
        }
        return ObjectAccessor(realm: other, classInfo: try other.classInfo(tableID: classInfo.tableID), key: key)
    }

    /// The live object in the realm this one was frozen from, or nil if it has been deleted since.
    package func thaw() throws -> ObjectAccessor? {
        guard isFrozen else { return self }
        let live = try realm.thaw()
        let object = ObjectAccessor(realm: live, classInfo: try live.classInfo(tableID: classInfo.tableID), key: key)
        return try object.isValid() ? object : nil
    }
}

extension Results {
    package var isFrozen: Bool { realm.isFrozen }

    /// These results at the version their realm reads now: same query, sort and source, evaluated
    /// against that version forever, usable from any thread.
    package func freeze() throws -> Results {
        if isFrozen { return self }
        return rebound(to: try realm.freeze())
    }

    /// The live results (in the realm these were frozen from).
    package func thaw() throws -> Results {
        guard isFrozen else { return self }
        return rebound(to: try realm.thaw())
    }

    /// The same results read through another handle of the same file with the same classes
    /// (another thread's, which then observes them).
    /// - Throws: `.invalidArgument` for a handle of another file; `.notFound` when it lacks the class.
    package func reopened(in other: Realm) throws -> Results {
        guard other.filePath == realm.filePath else {
            throw DBError(.invalidArgument, "results can only move to a handle of the same realm file")
        }
        _ = try other.classInfo(tableID: classInfo.tableID)
        return rebound(to: other)
    }
}

extension CollectionAccessor {
    package var isFrozen: Bool { object.isFrozen }

    /// This list, set or dictionary at the version its realm reads now, usable from any thread.
    package func freeze() throws -> CollectionAccessor {
        if isFrozen { return self }
        return try reopened(on: try object.freeze())
    }

    /// The live collection, or nil if its object has been deleted since.
    package func thaw() throws -> CollectionAccessor? {
        guard isFrozen else { return self }
        return try object.thaw().map(reopened)
    }

    /// The same collection read through another handle of the same realm file (for a thread
    /// that observes on behalf of another).
    package func reopened(in other: Realm) throws -> CollectionAccessor {
        try reopened(on: object.reopened(in: other))
    }

    /// The same property of another accessor of the object (frozen or live).
    private func reopened(on object: ObjectAccessor) throws -> CollectionAccessor {
        let property = try object.classInfo.requireProperty(columnID: self.property.columnID)
        switch property.collection {
        case .list: return try ListAccessor(object: object, property: property)
        case .set: return try SetAccessor(object: object, property: property)
        default: return try DictionaryAccessor(object: object, property: property)
        }
    }
}
