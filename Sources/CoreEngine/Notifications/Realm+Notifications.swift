#if canImport(Glibc)
import Glibc
#endif

extension Realm {
    /// Calls the notification callbacks registered through this handle that have something to
    /// report: initial callbacks of new registrations, and changes between the version each last
    /// reported and the version the realm reads now. Runs on the calling thread. `refresh()` and
    /// `commitWrite()` call it; a host with its own scheduling calls it when woken.
    /// - Throws: `.closedRealm`; errors reading the realm. Callbacks run outside the realm's lock.
    package func deliverNotifications() throws {
        let calls: [() -> Void] = try lock.withLock {
            _ = try requireOpen()
            guard !notifications.isEmpty, transaction?.isWrite != true else { return [] }
            return try notifications.prepare(try currentTransaction())
        }
        for call in calls { call() }
        // The last owner went while the delivery was prepared (see `closeUnlessInUse`).
        if lock.withLock({ closeWhenDelivered }) { close() }
    }

    /// Sets the function the library calls, from a background thread, when this realm's file gets
    /// a commit (from any handle, thread or process): the host then calls `refresh()` on the
    /// realm's own thread, which advances it and delivers its notifications. Without one,
    /// notifications wait for the owner's next `refresh()` or commit. nil removes it; removing
    /// (or closing the realm) waits for a call in progress.
    /// - Throws: `.closedRealm`.
    package func setScheduler(_ notify: (() -> Void)?) throws {
        let environment = try lock.withLock { try requireOpenOnAnyThread() }
        try requireLive("have a scheduler")
        let id = ObjectIdentifier(self)
        if let notify {
            // Unowned, not weak: a weakly referenced object keeps its reference counts in a side
            // table, which makes every retain and release of the realm (one per object handed
            // out, per accessor call) slow. Safe because the realm's deinit closes it, and
            // closing unsubscribes first, waiting for a call in progress.
            CommitWatcher.shared.subscribe(id, environment: environment) { [unowned(unsafe) self] in
                self.precomputeNotifications()
                notify()
            }
        } else {
            CommitWatcher.shared.unsubscribe(id)
        }
    }

    /// On the commit watcher's thread, before waking the owner: computes the results'
    /// changesets against the newest version, so that the owner's refresh only delivers them.
    /// Done only when the owner is not using the realm (the lock is free) and not writing, and
    /// when the schema has not changed; otherwise the owner computes them as usual. The realm's
    /// lock is only tried (the watcher holds a subscriber's lock, which comes before it in the
    /// lock order), and nothing under it waits for a token (see `LockLevel`).
    func precomputeNotifications() {
        // A brief wait for a lock the owner holds for a moment; a busy owner computes itself.
        var attempts = 0
        while !lock.tryLock() {
            attempts += 1
            if attempts > 20 { return }
            usleep(1_000)
        }
        // Dropping unused registrations may release the realm's last owner (see
        // `closeUnlessInUse`): the realm then closes here, once unlocked (these run in reverse).
        // Nothing on this thread holds the realm (the watcher refers to it unowned), and closing
        // drops the registrations that do: it is retained across the close, so that it is not
        // freed inside it.
        var closeAfterwards = false
        defer {
            if closeAfterwards {
                let retained = Unmanaged.passRetained(self)
                close()
                retained.release()
            }
        }
        defer {
            closeAfterwards = closeWhenDelivered
            lock.unlock()
        }
        guard let environment, !notifications.isEmpty, transaction?.isWrite != true,
              let snapshot = try? StorageTransaction(environment: environment, write: false) else { return }
        defer { snapshot.abort() }
        guard snapshot.storedSchema == transaction?.storedSchema else { return }
        try? notifications.precompute(snapshot)
    }

    /// A new registration's initial call is due: with a scheduler, wake the host to deliver it
    /// (without one, it waits for the owner's next refresh, commit or delivery).
    fileprivate func scheduleInitialDelivery() {
        CommitWatcher.shared.requestWake(ObjectIdentifier(self))
    }

    /// After a commit or refresh: delivery problems must not turn a successful commit into an error.
    func deliverNotificationsAfterChange() {
        try? deliverNotifications()
    }

    fileprivate func requireObservable() throws {
        _ = try requireOpen()
        if isFrozen { throw DBError(.logic, "a frozen realm never changes: its objects and collections cannot be observed (thaw them first)") }
        if transaction?.isWrite == true {
            throw DBError(.wrongTransactionState, "cannot register a notification callback inside a write transaction")
        }
    }
}

extension Results {
    /// Registers `callback` for changes to these results. The first call reports `.initial` (the
    /// results evaluated); each later call reports, for all commits since the previous one, the
    /// deletions, insertions, modifications and moves (see `CollectionChange`). Calls happen in
    /// `Realm.deliverNotifications()`, which `refresh()` and `commitWrite()` run.
    /// - Parameter keyPaths: what counts as a modification (e.g. `["name", "toys.brand"]`); nil
    ///   for every property of the objects and of the objects they link to, up to
    ///   `ObservedKeyPaths.defaultDepth` links away.
    /// - Returns: the registration; invalidate (or release) it to stop the calls.
    /// - Throws: `.wrongTransactionState` inside a write transaction, `.invalidArgument` for an
    ///   unknown key path or snapshot results, `.closedRealm`.
    package func observe(keyPaths: [String]? = nil, _ callback: @escaping (CollectionChange) -> Void) throws -> NotificationToken {
        try realm.lock.withLock {
            try realm.requireObservable()
            if isSnapshot { throw DBError(.invalidArgument, "a snapshot does not change: there is nothing to observe") }
            let paths = try keyPaths.map { try ObservedKeyPaths.named($0, classInfo, realm) } ?? ObservedKeyPaths.deep(classInfo, realm)
            defer { realm.scheduleInitialDelivery() }
            return realm.notifications.register(on: self, paths: paths, callback) { CollectionNotifier(results: self) }
        }
    }
}

extension CollectionAccessor {
    /// Registers `callback` for changes to this list, set or dictionary, as `Results.observe`
    /// does: a list or set of objects reports its objects' changes (and key paths apply to them);
    /// a list or set of values reports insertions, deletions and moves of values. A dictionary's
    /// indices are those of its entries in key order, whatever it holds: keys added and removed
    /// are insertions and deletions, a key whose value was replaced is a modification, and so is
    /// a key whose object changed where the key paths look (see `DictionaryNotifier`).
    /// - Throws: as `Results.observe`; `.invalidArgument` for key paths on values.
    package func observe(keyPaths: [String]? = nil, _ callback: @escaping (CollectionChange) -> Void) throws -> NotificationToken {
        let isDictionary = property.collection == .dictionary
        if elementType == .object && !isDictionary { return try observedResults().observe(keyPaths: keyPaths, callback) }
        return try realm.lock.withLock {
            try realm.requireObservable()
            _ = try object.requireValid()
            let target = try targetClass()
            var paths: ObservedKeyPaths?
            if let target {
                paths = try keyPaths.map { try ObservedKeyPaths.named($0, target, realm) } ?? ObservedKeyPaths.deep(target, realm)
            } else if let keyPaths, !keyPaths.isEmpty {
                throw DBError(.invalidArgument, "'\(object.classInfo.name).\(property.name)' holds values, which have no key paths to observe")
            }
            defer { realm.scheduleInitialDelivery() }
            return realm.notifications.register(on: self, paths: paths, callback) { () -> any CollectionObserving in
                isDictionary ? DictionaryNotifier(collection: self, target: target) : ValuesNotifier(collection: self)
            }
        }
    }
}

extension ObjectAccessor {
    /// Registers `callback` for changes to this object: `.deleted`, or `.changed` with the written
    /// properties and their values before and after. There is no initial call. Shallow by
    /// default: writes to linked objects count only where `keyPaths` name them (`["owner.name"]`).
    /// - Throws: `.wrongTransactionState` inside a write transaction, `.invalidArgument` for an
    ///   unknown key path, `.invalidated` for a deleted object, `.closedRealm`.
    package func observe(keyPaths: [String]? = nil, _ callback: @escaping (ObjectChange) -> Void) throws -> NotificationToken {
        try realm.lock.withLock {
            try realm.requireObservable()
            guard try isValid() else { throw DBError(.invalidated, "the object has been deleted") }
            let paths = try keyPaths.map { try ObservedKeyPaths.named($0, classInfo, realm) } ?? ObservedKeyPaths.shallow(classInfo)
            let token = NotificationToken()
            realm.notifications.objects.append(try ObjectNotifier(token: token, object: self, paths: paths,
                                                                  transaction: try realm.currentTransaction(), callback: callback))
            return token
        }
    }
}

extension SectionedResults {
    /// Registers `callback` for changes to the sections: the first call is the initial one, later
    /// calls report sections inserted and deleted and objects inserted, deleted and modified as
    /// (section, item) paths (see `SectionedChange`), for all commits since the previous call.
    /// Objects count as modified when any of their properties, or of the objects they link to
    /// (four links deep), changed; with `keyPaths` (`["name", "owner.name"]`), only writes to
    /// those count, and `[]` counts none (only insertions, deletions and moves between sections).
    /// When any callback of the same sectioned results has something to report, every one is
    /// called, each with the modifications its own key paths select, as for Results.
    /// - Throws: `.wrongTransactionState` inside a write, `.logic` when frozen, `.closedRealm`,
    ///   `.invalidArgument` for an unknown key path.
    package func observe(keyPaths: [String]? = nil, _ callback: @escaping (SectionedChange) -> Void) throws -> NotificationToken {
        try realm.lock.withLock {
            try realm.requireObservable()
            let paths = try keyPaths.map { try ObservedKeyPaths.named($0, results.classInfo, realm) }
            let token = NotificationToken()
            let id = ObjectIdentifier(self)
            let notifier = realm.notifications.sectioned[id] ?? SectionedNotifier(sectioned: self)
            notifier.add(.init(token: token, paths: paths, callback: callback))
            realm.notifications.sectioned[id] = notifier
            realm.scheduleInitialDelivery()
            return token
        }
    }
}
