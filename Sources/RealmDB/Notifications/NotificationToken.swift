import CoreEngine
import Foundation

/// Keeps a notification block registered. Call `invalidate()` (or release the token) to stop it.
///
/// For blocks called on this thread's run loop, the block is not running and will not run again
/// once `invalidate()` returns. For blocks called on a queue or an actor, a call already
/// started finishes; none starts after `invalidate()` returns.
public final class NotificationToken: @unchecked Sendable {
    private let lock = NSLock()
    private var invalidated = false
    private var engineToken: CoreEngine.NotificationToken?
    /// Stops what delivers elsewhere (see `NotifierThread`), in order.
    private var onInvalidate: [() -> Void] = []
    /// For `write(withoutNotifying:)`: the next change the block would see is dropped.
    private var skipsNextChange = false
    /// The realm handle the registration reads through, kept open while the token is valid:
    /// the engine's registration holds it only weakly (holding it strongly would be a cycle
    /// through the engine realm, and would release it under the realm's lock).
    private var retainedHandle: RealmHandle?

    init() {}

    func attach(_ token: CoreEngine.NotificationToken, keeping handle: RealmHandle? = nil) {
        lock.withLock {
            engineToken = token
            retainedHandle = handle
        }
    }

    /// Adds what `invalidate()` must stop; runs it at once if already invalidated.
    func addOnInvalidate(_ stop: @escaping () -> Void) {
        let already: Bool = lock.withLock {
            if !invalidated { onInvalidate.append(stop) }
            return invalidated
        }
        if already { stop() }
    }

    /// Whether `invalidate()` was called.
    public var isInvalidated: Bool { lock.withLock { invalidated } }

    /// Stops the notifications; idempotent, and allowed from inside the block.
    public func invalidate() {
        let (token, stops, handle) = lock.withLock { () -> (CoreEngine.NotificationToken?, [() -> Void], RealmHandle?) in
            invalidated = true
            defer { onInvalidate = []; retainedHandle = nil }
            return (engineToken, onInvalidate, retainedHandle)
        }
        _ = handle  // released here, outside every lock
        token?.invalidate()
        for stop in stops { stop() }
    }

    func skipNextChange() { lock.withLock { skipsNextChange = true } }

    /// Whether a change is to be delivered (and the skip, if any, used up).
    func shouldDeliverChange() -> Bool {
        lock.withLock {
            if invalidated { return false }
            if skipsNextChange {
                skipsNextChange = false
                return false
            }
            return true
        }
    }

    deinit { invalidate() }
}
