import CoreEngine
import Foundation

extension Object {
    /// Calls `block` after each commit that writes the object's properties (`.change` with the
    /// properties and their old and new values) or deletes it (`.deleted`, the last call). There
    /// is no initial call. Without a queue, calls come through this thread's run loop; with one,
    /// a thread of the library observes and the object handed over is frozen.
    /// - Parameter keyPaths: the properties that count (`["name", "owner.name"]`); nil for the
    ///   object's own properties.
    public func observe<T: Object>(keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
                                   _ block: @escaping (ObjectChange<T>) -> Void) -> NotificationToken {
        let token = NotificationToken()
        guard let managed, let handle else {
            block(.error(RealmError(.logic, "an unmanaged object cannot be observed: add it to a realm first")))
            return token
        }
        guard let queue else {
            do {
                try handle.startRunLoopDelivery()
                token.attach(try Self.register(managed, handle, keyPaths, token, as: T.self, deliver: block), keeping: handle)
            } catch {
                token.invalidate()
                block(.error(error))
            }
            return token
        }
        let source = UncheckedSendable(managed)
        let deliver = UncheckedSendable(block)
        do {
            // Reopened on the library's thread it would be live: refuse as the run loop refuses.
            if managed.realm.isFrozen { throw RealmError.frozenCannotBeObserved }
            let notifier = try NotifierThread.start(configuration: handle.configuration) { [weak token] threadHandle in
                let accessor = try translatingErrors { try source.value.reopened(in: threadHandle.engine) }
                try threadHandle.startRunLoopDelivery()
                let inner = NotificationToken()
                // The token only weakly: releasing it (its deinit invalidates) must stop the notifier.
                inner.attach(try Self.register(accessor, threadHandle, keyPaths, inner, as: T.self) { [weak token] change in
                    let frozen = UncheckedSendable(change.frozen())  // a frozen object: readable on any thread
                    queue.async { [weak token] in
                        if let token, !token.isInvalidated { deliver.value(frozen.value) }
                    }
                }, keeping: threadHandle)
                return inner
            }
            token.addOnInvalidate { notifier.stop() }
        } catch {
            block(.error(error))
        }
        return token
    }

    /// `observe(keyPaths:on:_:)` with Swift key paths.
    public func observe<T: Object>(keyPaths: [PartialKeyPath<T>], on queue: DispatchQueue? = nil,
                                   _ block: @escaping (ObjectChange<T>) -> Void) -> NotificationToken {
        let names = keyPaths.map { keyPath in engineOrTrap { try _KeyPathRecorder.name(of: keyPath) } }
        return observe(keyPaths: names, on: queue, block)
    }

    private static func register<T: Object>(_ accessor: ObjectAccessor, _ handle: RealmHandle, _ keyPaths: [String]?,
                                            _ token: NotificationToken, as type: T.Type,
                                            deliver: @escaping (ObjectChange<T>) -> Void) throws -> CoreEngine.NotificationToken {
        let metadata = ObjectSchemaDiscovery.metadata(of: T.self)
        return try translatingErrors {
            try accessor.observe(keyPaths: keyPaths) { [weak token, weak shared = handle.shared] change in
                guard let shared, token?.shouldDeliverChange() ?? true else { return }
                let handle = RealmHandle(shared)
                let object = T.materialize(accessor, in: handle)
                switch change {
                case .deleted:
                    deliver(.deleted)
                case .changed(let properties):
                    deliver(.change(object, properties.map { property in
                        let valueType = metadata.property(named: property.name)?.valueType
                        func converted(_ value: Value?) -> Any? {
                            guard let value, let valueType else { return nil }
                            return try? valueType._rlmFrom(_StoredValue(value), in: handle)
                        }
                        return PropertyChange(name: property.name, oldValue: converted(property.oldValue),
                                              newValue: converted(property.newValue))
                    }))
                }
            }
        }
    }
}

extension ObjectChange where T: Object {
    /// The same change with a frozen object.
    func frozen() -> ObjectChange<T> {
        guard case .change(let object, let properties) = self else { return self }
        do {
            return .change(try object.frozenCopy(), properties)
        } catch {
            return .error(error)
        }
    }
}

extension Object {
    /// Calls `block` isolated to `actor` with each change of this object (see
    /// `observe(keyPaths:on:_:)`), the object frozen; in order.
    public func observe<A: Actor, T: Object>(keyPaths: [String]? = nil, on actor: A,
                                             _ block: @Sendable @escaping (isolated A, ObjectChange<T>) -> Void) async -> NotificationToken {
        let (stream, continuation) = AsyncStream<UncheckedSendable<ObjectChange<T>>>.makeStream()
        let token = observe(keyPaths: keyPaths, on: DispatchQueue(label: "realmdb object observer")) { (change: ObjectChange<T>) in
            continuation.yield(UncheckedSendable(change))
        }
        let consumer = Task { [weak token] in
            var changes = stream.makeAsyncIterator()
            while let change = await changes.next(), let token, !token.isInvalidated {
                await callIsolated(block, on: actor, change.value)
            }
        }
        token.addOnInvalidate {
            continuation.finish()
            consumer.cancel()
        }
        return token
    }

}

/// Calls `block` isolated to `actor`.
func callIsolated<A: Actor, Change>(_ block: (isolated A, Change) -> Void, on actor: isolated A, _ change: Change) {
    block(actor, change)
}
