/// Keeps a notification callback registered; `invalidate()` (or releasing the token) removes it.
///
/// After `invalidate()` returns, the callback is not running and will not run again: a callback
/// in progress on another thread is waited for, and invalidating from inside the token's own
/// callback is allowed (that delivery finishes, none follows).
///
/// Two locks, in the engine's lock order (see `LockLevel`): `deliveryLock` (level `callback`) is
/// held while the callback runs, so the callback may call back into the realm; `stateLock`
/// (a leaf) guards only the flag, so that a notifier can ask `isInvalidated` under the realm's
/// lock without waiting for a callback that is itself waiting for that realm.
package final class NotificationToken: @unchecked Sendable {
    private let deliveryLock = RecursiveLock(level: .callback, name: "notification token delivery")
    private let stateLock = RecursiveLock(level: .leaf, name: "notification token state")
    private var invalidated = false

    init() {}

    /// Nothing can be delivering when the last reference goes (a delivery holds one).
    deinit { stateLock.withLock { invalidated = true } }

    package var isInvalidated: Bool { stateLock.withLock { invalidated } }

    /// Stops delivery; idempotent. The realm forgets the registration at its next delivery.
    /// Waits for a call of the callback in progress on another thread, so it must not be called
    /// while holding a realm's lock. A callback that invalidates another token whose callback is
    /// running on another thread waits for that one: two such callbacks invalidating each
    /// other's tokens at the same moment would wait for each other.
    package func invalidate() {
        stateLock.withLock { invalidated = true }
        deliveryLock.withLock {}  // a callback in progress (on another thread) has finished
    }

    /// Runs `body` (the callback) unless the token has been invalidated.
    func deliver(_ body: () throws -> Void) rethrows {
        try deliveryLock.withLock {
            guard !isInvalidated else { return }
            try body()
        }
    }
}
