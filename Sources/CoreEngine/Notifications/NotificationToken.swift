/// Keeps a notification callback registered; `invalidate()` (or releasing the token) removes it.
///
/// After `invalidate()` returns, the callback is not running and will not run again: a callback
/// in progress on another thread is waited for, and invalidating from inside the token's own
/// callback is allowed (that delivery finishes, none follows).
public final class NotificationToken: @unchecked Sendable {
    /// Held while the callback runs and while invalidating.
    let lock = RecursiveLock()
    private var invalidated = false

    init() {}

    deinit { invalidate() }

    public var isInvalidated: Bool { lock.withLock { invalidated } }

    /// Stops delivery; idempotent. The realm forgets the registration at its next delivery.
    public func invalidate() {
        lock.withLock { invalidated = true }
    }

    /// Runs `body` (the callback) unless the token has been invalidated.
    func deliver(_ body: () throws -> Void) rethrows {
        try lock.withLock {
            guard !invalidated else { return }
            try body()
        }
    }
}
