import Foundation
/// The forms of the collection operations that name properties by Swift key path (`\Dog.age`)
/// instead of by string, for every `RealmCollection` (Results, lists and sets of objects,
/// linking objects).
extension RealmCollection {
    /// Sorted by a property.
    public func sorted<V: Comparable>(by keyPath: KeyPath<Element, V>, ascending: Bool = true) -> Results<Element> {
        sorted(byKeyPath: propertyName(keyPath), ascending: ascending)
    }

    /// Sorted by a property that may be nil (nils first when ascending).
    public func sorted<V: Comparable>(by keyPath: KeyPath<Element, V?>, ascending: Bool = true) -> Results<Element> {
        sorted(byKeyPath: propertyName(keyPath), ascending: ascending)
    }

    /// One object per distinct combination of the properties' values.
    public func distinct<S: Sequence>(by keyPaths: S) -> Results<Element> where S.Element == PartialKeyPath<Element> {
        distinct(by: keyPaths.map(propertyName))
    }

    /// The smallest value of a property, or nil when there is none.
    public func min<V: _QueryComparable>(of keyPath: KeyPath<Element, V>) -> V? { min(ofProperty: propertyName(keyPath)) }
    /// The largest value of a property, or nil when there is none.
    public func max<V: _QueryComparable>(of keyPath: KeyPath<Element, V>) -> V? { max(ofProperty: propertyName(keyPath)) }
    /// The sum of a numeric property (0 for no objects).
    public func sum<V: _QueryNumeric>(of keyPath: KeyPath<Element, V>) -> V { sum(ofProperty: propertyName(keyPath)) }
    /// The average of a numeric property, or nil for no objects.
    public func average<V: _QueryNumeric>(of keyPath: KeyPath<Element, V>) -> V? { average(ofProperty: propertyName(keyPath)) }

    /// `observe(keyPaths:on:_:)` with the key paths written as Swift key paths (`[\Dog.name]`).
    public func observe(keyPaths: [PartialKeyPath<Element>], on queue: DispatchQueue? = nil,
                        _ block: @escaping (RealmCollectionChange<Self>) -> Void) -> NotificationToken {
        observe(keyPaths: keyPaths.map(propertyName), on: queue, block)
    }

    private func propertyName(_ keyPath: PartialKeyPath<Element>) -> String {
        engineOrTrap { try _KeyPathRecorder.name(of: keyPath) }
    }
}

extension SectionedResults {
    /// `observe(keyPaths:on:_:)` with the key paths written as Swift key paths (`[\Dog.name]`).
    public func observe(keyPaths: [PartialKeyPath<Element>], on queue: DispatchQueue? = nil,
                        _ block: @escaping (SectionedResultsChange<SectionedResults<Key, Element>>) -> Void) -> NotificationToken {
        observe(keyPaths: keyPaths.map { keyPath in engineOrTrap { try _KeyPathRecorder.name(of: keyPath) } }, on: queue, block)
    }
}

extension SortDescriptor {
    /// Sort by a property named by a Swift key path (`SortDescriptor(keyPath: \Dog.age)`).
    public init<Root: Object, V>(keyPath: KeyPath<Root, V>, ascending: Bool = true) {
        self.init(keyPath: engineOrTrap { try _KeyPathRecorder.name(of: keyPath) }, ascending: ascending)
    }
}
