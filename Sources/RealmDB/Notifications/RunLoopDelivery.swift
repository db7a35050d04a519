import CoreEngine
import Foundation

/// Delivers a handle's notifications on the thread that opened it, as Realm's SDK does through
/// the thread's run loop: when the file gets a commit (from any thread or process), the library's
/// watcher thread asks the owner thread's run loop (the main queue on the main thread) to
/// refresh the realm, which calls the blocks that have something to report.
///
/// Delivery ends when the handle goes (the engine realm then closes, and its scheduler goes
/// with it); a wake already on the run loop then finds nothing to do.
///
/// The owner thread must run its run loop (`RunLoop.current.run(...)`, or `dispatchMain()` /
/// `RunLoop.main.run()` on the main thread) for blocks to be called; `refresh()` delivers too.
final class RunLoopDelivery: @unchecked Sendable {
    private let lock = NSLock()
    private var isScheduled = false
    private let runLoop: RunLoop?
    private let engineReference: EngineReference

    /// Starts delivery for `engine`, on the calling thread.
    init(engine: CoreEngine.Realm) throws(RealmError) {
        runLoop = Thread.isMainThread ? nil : RunLoop.current
        let engineReference = EngineReference(engine)
        self.engineReference = engineReference
        try translatingErrors {
            try engine.setScheduler { [weak self] in self?.schedule(engineReference) }
        }
    }

    /// The handle that owns this delivery is going: its engine may close now.
    deinit { engineReference.clear() }

    private func schedule(_ engine: EngineReference) {
        let first: Bool = lock.withLock {
            defer { isScheduled = true }
            return !isScheduled
        }
        guard first else { return }
        let deliver: @Sendable () -> Void = { [weak self] in
            self?.lock.withLock { self?.isScheduled = false }
            engine.refresh()
        }
        if let runLoop {
            runLoop.add(Timer(timeInterval: 0, repeats: false) { _ in deliver() }, forMode: .default)
        } else {
            DispatchQueue.main.async(execute: deliver)
        }
    }

    /// The engine realm, for the refreshes scheduled on the run loop, until the delivery ends
    /// (`clear`). A strong reference that is dropped, not a weak one: a weakly referenced
    /// object keeps its reference counts in a side table, which made every retain and release
    /// of the engine realm (one per object handed out) slow.
    private final class EngineReference: @unchecked Sendable {
        private let lock = NSLock()
        private var engine: CoreEngine.Realm?
        init(_ engine: CoreEngine.Realm) { self.engine = engine }

        func clear() { lock.withLock { engine = nil } }

        func refresh() {
            guard let engine = lock.withLock({ engine }), !engine.isClosed, !engine.isInWriteTransaction else { return }
            _ = try? engine.refresh()
        }
    }
}

extension RealmHandle {
    /// Starts run-loop delivery at the first observation of this handle.
    func startRunLoopDelivery() throws(RealmError) {
        guard shared.runLoopDelivery == nil, !engine.isFrozen else { return }
        shared.runLoopDelivery = try RunLoopDelivery(engine: engine)
    }
}

extension RealmHandle {
    /// Registers a collection's engine observation (`register`) with its changes delivered on
    /// this thread's run loop: `block` gets `.initial`, then the updates, each with the collection
    /// made for the call (`collection`, through this handle while it lives), or `.error` at once
    /// (and the token comes back invalidated) when the engine refuses to observe.
    func observeOnRunLoop<Collection>(
        _ register: (@escaping (CoreEngine.CollectionChange) -> Void) throws -> CoreEngine.NotificationToken,
        collection: @escaping (RealmHandle) -> Collection,
        _ block: @escaping (RealmCollectionChange<Collection>) -> Void
    ) -> NotificationToken {
        let token = NotificationToken()
        do {
            try startRunLoopDelivery()
            // The handle's state only weakly: the engine's registration must not keep it (see
            // NotificationToken.attach).
            let engineToken = try translatingErrors {
                try register { [weak token, weak shared = self.shared] change in
                    guard let shared else { return }
                    let current = collection(RealmHandle(shared))
                    if change.isInitial {
                        block(.initial(current))
                    } else if token?.shouldDeliverChange() ?? true {
                        block(.update(current, deletions: change.deletions, insertions: change.insertions,
                                      modifications: change.modificationsNew))
                    }
                }
            }
            token.attach(engineToken, keeping: self)
        } catch {
            token.invalidate()
            block(.error(error))
        }
        return token
    }
}
