import CoreEngine
import Foundation

/// Observes on a thread of its own, for blocks called on a dispatch queue or an actor: the
/// thread opens its own handle of the realm, registers there, and runs its run loop, which the
/// commit watcher wakes for each commit (of any thread or process). What it hands over is frozen,
/// so that the queue or actor may read it on whatever thread it runs.
///
/// One thread per observation; it ends when the token is invalidated or released.
final class NotifierThread: @unchecked Sendable {
    private let lock = NSLock()
    private var stopped = false
    private var runLoop: RunLoop?

    /// Starts the thread: `register` runs on it with the thread's handle of `configuration`,
    /// and returns the registration to end when stopped. Returns once `register` has run
    /// (rethrowing its error), so that a bad key path fails the call that observes.
    static func start(configuration: Realm.Configuration,
                      register: @escaping (RealmHandle) throws -> NotificationToken) throws(RealmError) -> NotifierThread {
        let notifier = NotifierThread()
        let registered = DispatchSemaphore(value: 0)
        let failure = LockedValue<RealmError?>(nil)
        // The thread is the only user of both until `start` returns.
        let register = UncheckedSendable(register)
        let thread = Thread {
            var token: NotificationToken?
            do {
                let handle = try RealmHandle.open(configuration)
                token = try register.value(handle)
            } catch let error as RealmError {
                failure.withLock { $0 = error }
            } catch {
                failure.withLock { $0 = RealmError(.callback, "\(error)") }
            }
            notifier.lock.withLock { notifier.runLoop = RunLoop.current }
            registered.signal()
            guard failure.withLock({ $0 }) == nil else { return }
            // A timer far away keeps the run loop waiting for the commit watcher's wakes.
            let keepAlive = Timer(timeInterval: 1e9, repeats: true) { _ in }
            RunLoop.current.add(keepAlive, forMode: .default)
            while !notifier.isStopped {
                _ = RunLoop.current.run(mode: .default, before: Date().addingTimeInterval(0.25))
            }
            keepAlive.invalidate()
            token?.invalidate()
        }
        thread.name = "realmdb notifier"
        thread.start()
        registered.wait()
        if let failure = failure.withLock({ $0 }) { throw failure }
        return notifier
    }

    private var isStopped: Bool { lock.withLock { stopped } }

    /// Ends the thread (it notices within a quarter of a second, or at once when woken).
    func stop() {
        let runLoop: RunLoop? = lock.withLock {
            stopped = true
            return self.runLoop
        }
        runLoop?.add(Timer(timeInterval: 0, repeats: false) { _ in }, forMode: .default)
    }
}

extension RealmError {
    /// What observing a frozen realm's object or collection on a queue or an actor throws, as the
    /// engine refuses it on the run loop.
    static var frozenCannotBeObserved: RealmError {
        RealmError(.logic, "a frozen realm never changes: its objects and collections cannot be observed (thaw them first)")
    }
}

/// The ways to be told of changes away from the run loop, for whatever a notifier thread can
/// observe: `register(token, deliver)` starts observing (until `token` is invalidated) and hands
/// each change, frozen, to `deliver` on the notifier thread.
enum NotifierDelivery {
    typealias Register<Change> = (_ token: NotificationToken, _ deliver: @escaping (Change) -> Void) -> Void

    /// How to observe a collection of `realm` on a notifier thread: `observe` gets the thread's
    /// realm and registers there (on its run loop) the collection reopened through it, handing
    /// each change, frozen, to `deliver`. An unmanaged or frozen collection, or a failure to
    /// start, is one `.error`.
    static func reopening<Collection>(
        realm: Realm?, isFrozen: Bool,
        _ observe: @escaping (_ realm: Realm, _ deliver: @escaping (RealmCollectionChange<Collection>) -> Void) throws -> NotificationToken
    ) -> Register<RealmCollectionChange<Collection>> {
        reopening(realm: realm, isFrozen: isFrozen, error: { .error($0) }, observe)
    }

    /// `reopening` for any kind of change (a map's), `error` making the one `.error`.
    static func reopening<Change>(
        realm: Realm?, isFrozen: Bool, error: @escaping (Swift.Error) -> Change,
        _ observe: @escaping (_ realm: Realm, _ deliver: @escaping (Change) -> Void) throws -> NotificationToken
    ) -> Register<Change> {
        let observe = UncheckedSendable(observe)  // called once, on the notifier thread
        return { token, deliver in
            let deliverBox = UncheckedSendable(deliver)
            do {
                guard let realm else {
                    throw RealmError(.invalidArgument, "an unmanaged collection cannot be observed: add its object to a realm first")
                }
                // Reopened on the library's thread it would be live: refuse as the run loop refuses.
                if isFrozen { throw RealmError.frozenCannotBeObserved }
                let notifier = try NotifierThread.start(configuration: realm.handle.configuration) { handle in
                    try observe.value(Realm(handle: handle), deliverBox.value)
                }
                token.addOnInvalidate { notifier.stop() }
            } catch let failure {
                deliver(error(failure))
            }
        }
    }

    /// Calls `block` on `queue` with each change.
    static func onQueue<Change>(_ queue: DispatchQueue, _ register: Register<Change>,
                                _ block: @escaping (Change) -> Void) -> NotificationToken {
        let token = NotificationToken()
        let boxed = UncheckedSendable(block)
        // The token only weakly: releasing it (its deinit invalidates) must stop the notifier.
        register(token) { [weak token] change in
            let frozen = UncheckedSendable(change)  // what it holds is frozen
            queue.async { [weak token] in
                if let token, !token.isInvalidated { boxed.value(frozen.value) }
            }
        }
        return token
    }

    /// The changes as a stream, which ends after an error. Ending the loop (or the task) stops observing.
    static func stream<Change>(_ register: Register<Change>, endsAfter isError: @escaping (Change) -> Bool) -> AsyncStream<Change> {
        AsyncStream { continuation in
            let token = NotificationToken()
            continuation.onTermination = { _ in token.invalidate() }
            register(token) { change in
                nonisolated(unsafe) let frozen = change  // what it holds is frozen: readable on any thread
                continuation.yield(frozen)
                if isError(change) { continuation.finish() }
            }
        }
    }

    /// Calls `block` isolated to `actor` with each change, in order.
    static func onActor<A: Actor, Change>(_ actor: A, _ register: Register<Change>,
                                          _ block: @Sendable @escaping (isolated A, Change) -> Void) -> NotificationToken {
        let (stream, continuation) = AsyncStream<UncheckedSendable<Change>>.makeStream()
        let token = NotificationToken()
        register(token) { change in continuation.yield(UncheckedSendable(change)) }
        let consumer = Task { [weak token] in
            for await change in stream {
                guard let token, !token.isInvalidated else { break }
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

extension RealmCollectionChange {
    /// The same change with `transform` applied to the collection it carries.
    func mapCollection(_ transform: (CollectionType) throws -> CollectionType) rethrows -> RealmCollectionChange<CollectionType> {
        switch self {
        case .initial(let collection): return .initial(try transform(collection))
        case .update(let collection, let deletions, let insertions, let modifications):
            return .update(try transform(collection), deletions: deletions, insertions: insertions, modifications: modifications)
        case .error(let error): return .error(error)
        }
    }
}

extension RealmCollectionChange where CollectionType: _ObservableCollection {
    /// The same change with the collection frozen. A list or set whose object was deleted has
    /// no version to freeze: it is handed over as it is, invalidated (`isInvalidated` is true,
    /// and reading it is the error it is on its own thread). A collection that cannot be frozen
    /// (its file removed, its realm closed meanwhile) gives `.error`, never a stop.
    func frozen() -> RealmCollectionChange<CollectionType> {
        do {
            return try mapCollection { $0.isInvalidated ? $0 : try $0._rlmFrozen() }
        } catch {
            return .error(error)
        }
    }
}

/// A value handed across threads where the library knows it is safe (frozen results, blocks
/// called only on their queue).
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
