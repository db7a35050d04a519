/// What a collection's notification block gets.
///
/// ```swift
/// let token = dogs.observe { change in
///     switch change {
///     case .initial(let dogs): print("\(dogs.count) dogs")
///     case .update(let dogs, let deletions, let insertions, let modifications): ...
///     case .error(let error): print(error)
///     }
/// }
/// ```
public enum RealmCollectionChange<CollectionType> {
    /// The collection was first evaluated: the first call after `observe`.
    case initial(CollectionType)
    /// Commits changed the collection. Indexes of deletions are in the previous state; insertions
    /// and modifications in the new one.
    case update(CollectionType, deletions: [Int], insertions: [Int], modifications: [Int])
    /// The collection could not be evaluated; no other call follows.
    case error(Swift.Error)
}

/// What an object's notification block gets.
public enum ObjectChange<T> {
    /// Observed properties changed, with their values before and after.
    case change(T, [PropertyChange])
    /// The object was deleted; no other call follows.
    case deleted
    /// The object could not be observed; no other call follows.
    case error(Swift.Error)
}

/// One property of an `ObjectChange`: its name and its values before and after the change
/// (nil for lists, which have no single value).
public struct PropertyChange {
    /// The name of the property.
    public let name: String
    /// The property's value before the change, or nil.
    public let oldValue: Any?
    /// The property's value after the change, or nil.
    public let newValue: Any?
}
