import CoreEngine

/// Keeps a notification block registered. Call `invalidate()` (or release the token) to stop it;
/// after `invalidate()` returns the block is not running and will not run again.
public final class NotificationToken: @unchecked Sendable {
    private var engineToken: CoreEngine.NotificationToken?
    /// For `write(withoutNotifying:)`: the next change the block would see is dropped.
    private(set) var skipsNextChange = false
    /// Stops what delivers to another queue (see `QueueDelivery`).
    private var onInvalidate: (() -> Void)?

    init(_ engineToken: CoreEngine.NotificationToken?, onInvalidate: (() -> Void)? = nil) {
        self.engineToken = engineToken
        self.onInvalidate = onInvalidate
    }

    func attach(_ token: CoreEngine.NotificationToken) { engineToken = token }

    /// Whether `invalidate()` was called.
    public var isInvalidated: Bool { engineToken?.isInvalidated ?? true }

    /// Stops the notifications; idempotent, and allowed from inside the block.
    public func invalidate() {
        engineToken?.invalidate()
        let stop = onInvalidate
        onInvalidate = nil
        stop?()
    }

    func skipNextChange() { skipsNextChange = true }

    /// Whether a change is to be delivered (and the skip, if any, used up).
    func shouldDeliverChange() -> Bool {
        if skipsNextChange {
            skipsNextChange = false
            return false
        }
        return true
    }

    deinit { invalidate() }
}
