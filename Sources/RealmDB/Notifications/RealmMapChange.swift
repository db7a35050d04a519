/// What a map's notification block gets: keys, where a collection's block gets positions.
///
/// ```swift
/// let token = dog.scores.observe { change in
///     switch change {
///     case .initial(let scores): print(scores.keys)
///     case .update(_, let deletions, let insertions, let modifications):
///         print("removed \(deletions), added \(insertions), changed \(modifications)")
///     case .error(let error): print(error)
///     }
/// }
/// ```
public enum RealmMapChange<Collection: RealmKeyedCollection> {
    /// The map was first read: the first call after `observe`.
    case initial(Collection)
    /// Commits changed the map: the keys removed, the keys added, and the keys whose value was
    /// replaced (or, for a map of objects, whose object changed where the key paths look).
    case update(Collection, deletions: [Collection.Key], insertions: [Collection.Key], modifications: [Collection.Key])
    /// The map could not be observed; no other call follows.
    case error(Swift.Error)
}

/// Values by key, as `Map` holds them: what `RealmMapChange` names its keys by.
public protocol RealmKeyedCollection {
    /// The type of the keys (`String`).
    associatedtype Key: _MapKey
    /// The type of the values.
    associatedtype Value
    /// The number of entries.
    var count: Int { get }
    /// The keys, in the stored order.
    var keys: [Key] { get }
    /// The value for a key, or nil.
    subscript(key: Key) -> Value? { get }
}

extension Map: RealmKeyedCollection {}
