/// One registered callback: its token (held weakly: releasing the token ends the registration),
/// what it observes, and whether it has had its initial call.
struct Subscription<Change> {
    weak var token: NotificationToken?
    /// Key paths that count as modifications (nil: the notifier's default).
    let paths: ObservedKeyPaths?
    let callback: (Change) -> Void
    var needsInitial = true
    /// Set when the subscription had its initial call in the current delivery: the change being
    /// delivered with it is from a version before the one its initial call shows, so it is not
    /// told that change.
    var hadInitialNow = false
}

/// A notifier's list of callbacks, and the calls it makes of them.
protocol SubscribedNotifier: AnyObject {
    associatedtype Change
    var subscriptions: [Subscription<Change>] { get set }
    /// What an initial call reports.
    static var initialChange: Change { get }
}

extension SubscribedNotifier {
    func add(_ subscription: Subscription<Change>) { subscriptions.append(subscription) }

    /// Whether no live token remains (dropping the dead ones).
    var isUnused: Bool {
        subscriptions.removeAll { $0.token == nil || $0.token!.isInvalidated }
        return subscriptions.isEmpty
    }

    /// The initial calls of the subscriptions that have not had one. Every delivery starts
    /// here: a subscription that has its initial call now is left out of the delivery's
    /// change (`calls`), which the collection its initial call reads already includes.
    func takeInitialCalls() -> [() -> Void] {
        var calls: [() -> Void] = []
        for i in subscriptions.indices {
            subscriptions[i].hadInitialNow = subscriptions[i].needsInitial
            guard subscriptions[i].needsInitial else { continue }
            subscriptions[i].needsInitial = false
            guard let token = subscriptions[i].token else { continue }
            let callback = subscriptions[i].callback
            let initial = Self.initialChange
            calls.append { token.deliver { callback(initial) } }
        }
        return calls
    }

    /// The calls for one change per subscription: to every one that had its initial call in an
    /// earlier delivery.
    func calls(_ changes: [Change]) -> [() -> Void] {
        zip(subscriptions, changes).compactMap { subscription, change in
            guard !subscription.needsInitial, !subscription.hadInitialNow, let token = subscription.token else { return nil }
            let callback = subscription.callback
            return { token.deliver { callback(change) } }
        }
    }

    /// The calls for one change shared by every subscription.
    func calls(_ change: Change) -> [() -> Void] {
        calls(Array(repeating: change, count: subscriptions.count))
    }
}
