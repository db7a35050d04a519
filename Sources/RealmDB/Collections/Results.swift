import CoreEngine
import Foundation

/// The objects of a class that match a query, in a chosen order: live (each access reads the
/// realm's current version) and lazy (nothing is read until it is used). Also the values of a
/// list or set sorted or made distinct (`person.scores.sorted(ascending: false)`), as live.
///
/// ```swift
/// let puppies = realm.objects(Dog.self).filter("age < %@", 2).sorted(byKeyPath: "name")
/// for dog in puppies { print(dog.name) }
/// ```
public struct Results<Element: _Persistable>: RandomAccessCollection, CustomStringConvertible {
    /// Where the elements come from: the objects of a class (`ObjectSource`), or the values of a
    /// list or set (`ValueSource`: `person.scores.sorted(ascending: false)`).
    let source: any ResultsSource<Element>

    init(source: any ResultsSource<Element>) {
        self.source = source
    }

    /// The realm of the elements; nil for the values of an unmanaged list or set.
    public var realm: Realm? { source.realm }

    /// Whether the realm was closed (or, for values, their object deleted).
    public var isInvalidated: Bool { source.isInvalidated }

    /// Whether these are frozen results (one version, any thread).
    public var isFrozen: Bool { source.isFrozen }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    /// The number of elements (objects are counted without reading them).
    public var count: Int { engineOrTrap { try source.count() } }

    /// The element at a position; a position out of range stops the program with a message.
    public subscript(position: Int) -> Element {
        engineOrTrap { try source.element(at: position) }
    }

    /// Iterates over the elements the results hold when iteration starts, as Realm's SDK does: a
    /// loop that changes the objects (`for dog in dogs { dog.age += 1 }`) visits each once,
    /// even when the change moves it out of the results or reorders them.
    public func makeIterator() -> Iterator {
        engineOrTrap { Iterator(source: source, iteration: try source.startIteration()) }
    }

    /// The elements transformed, in order, read as iteration reads them (objects a page of
    /// values at a time): the collection's `map` would look each position up alone.
    /// Inlinable, so that the caller's module specializes it for its element and result types:
    /// unspecialized, each element and each result moved through the runtime's value witnesses.
    @inlinable
    public func map<T, E: Error>(_ transform: (Element) throws(E) -> T) throws(E) -> [T] {
        var iterator = makeIterator()
        var result: [T] = []
        result.reserveCapacity(iterator._count)
        while let element = iterator.next() { result.append(try transform(element)) }
        return result
    }

    /// What `makeIterator()` returns: the elements the results held when iteration started, in order.
    public struct Iterator: IteratorProtocol {
        let source: any ResultsSource<Element>
        var iteration: ResultsIteration<Element>

        public mutating func next() -> Element? { source.next(&iteration) }

        /// How many elements the iteration holds in all.
        @usableFromInline var _count: Int { iteration.count }
    }

    // MARK: Frozen

    /// Frozen results: the elements of the current version, readable on any thread.
    public func freeze() -> Results<Element> {
        engineOrTrap { Results(source: try source.freeze()) }
    }

    /// The live results frozen results came from (on the live realm's thread), or nil when
    /// they are gone.
    public func thaw() -> Results<Element>? {
        engineOrTrap { try source.thaw().map { Results(source: $0) } }
    }

    public var description: String { source.description }
}

/// Results of objects: the objects of a class that match a query, in a chosen order.
extension Results where Element: Object {
    init(_ engineResults: CoreEngine.Results, handle: RealmHandle) {
        self.init(source: ObjectSource(engineResults, handle: handle))
    }

    /// The source of results of objects: always an `ObjectSource` (values are never objects, so
    /// no `ValueSource` has an `Object` element).
    var objectSource: ObjectSource<Element> { unsafeDowncast(source as AnyObject, to: ObjectSource<Element>.self) }
    var engineResults: CoreEngine.Results { objectSource.engineResults }
    var handle: RealmHandle { objectSource.handle }
    /// Pages of values read ahead for the objects `subscript` hands out (see `ReadAhead`).
    var readAhead: ResultsReadAhead { objectSource.readAhead }

    /// The first `maxLength` objects, as results (evaluated as a top-k when sorted: the rest are
    /// never sorted).
    public func prefix(_ maxLength: Int) -> Results<Element> {
        engineOrTrap { Results(try engineResults.limit(Swift.max(0, maxLength)), handle: handle) }
    }

    /// The last object, or nil.
    public var last: Element? { engineOrTrap { try engineResults.last().map { Element.materialize($0, in: handle) } } }

    /// The position of an object in the results, or nil.
    public func index(of object: Element) -> Int? {
        guard let managed = object.managed else { return nil }
        return engineOrTrap { try engineResults.index(of: managed) }
    }

    /// The position of the first object matching a query (see `filter(_:_:)`), or nil.
    public func index(matching predicateFormat: String, _ args: Any...) -> Int? {
        index(matching: predicateFormat, arguments: args)
    }

    /// `index(matching:_:)` with the arguments as an array (for collections that forward to it).
    func index(matching predicateFormat: String, arguments args: [Any]) -> Int? {
        engineOrTrap {
            let (query, arguments) = try QueryFormat.rewrite(predicateFormat, args)
            return try engineResults.index(matching: query, arguments: arguments)
        }
    }

    /// The objects at the given positions.
    public func objects(at indexes: IndexSet) -> [Element] {
        engineOrTrap { try engineResults.objects(at: Array(indexes)).map { Element.materialize($0, in: handle) } }
    }

    // MARK: Filtering and sorting

    /// The objects matching a query in the Realm Query Language (see docs/QUERY.md). Arguments
    /// are referenced as `$0`, `$1`, ... or, as in NSPredicate, `%@` (each takes the next
    /// argument) and `%K` (a property name, inserted as it is).
    /// A malformed query stops the program with its message, as in Realm's SDK; `query(_:_:)` throws instead.
    public func filter(_ predicateFormat: String, _ args: Any...) -> Results<Element> {
        engineOrTrap { try query(predicateFormat, args) }
    }

    /// `filter` that throws `.query` (with the offset of the token at fault) instead of stopping.
    public func query(_ predicateFormat: String, _ args: Any...) throws(RealmError) -> Results<Element> {
        try query(predicateFormat, args)
    }

    /// `query(_:_:)` with the arguments as an array (for collections that forward to it).
    func query(_ predicateFormat: String, _ args: [Any]) throws(RealmError) -> Results<Element> {
        let (query, arguments) = try QueryFormat.rewrite(predicateFormat, args)
        return Results(try translatingErrors { try engineResults.filter(query, arguments: arguments) }, handle: handle)
    }

    /// Sorted by a property (or a key path through to-one links).
    public func sorted(byKeyPath keyPath: String, ascending: Bool = true) -> Results<Element> {
        sorted(by: [SortDescriptor(keyPath: keyPath, ascending: ascending)])
    }

    /// Sorted by several properties: the first decides, later ones break ties.
    public func sorted<S: Sequence>(by sortDescriptors: S) -> Results<Element> where S.Element == SortDescriptor {
        engineOrTrap {
            let descriptors = try sortDescriptors.map {
                CoreEngine.SortDescriptor(path: try engineResults.propertyPath($0.keyPath), ascending: $0.ascending)
            }
            return Results(engineResults.sorted(by: descriptors), handle: handle)
        }
    }

    /// One object per distinct combination of the key paths' values (the first of each, in order).
    public func distinct<S: Sequence>(by keyPaths: S) -> Results<Element> where S.Element == String {
        engineOrTrap {
            Results(engineResults.distinct(byPaths: try keyPaths.map { try engineResults.propertyPath($0) }), handle: handle)
        }
    }

    // MARK: Aggregates

    /// The smallest value of a property (Int, Float, Double, Date, Decimal128), or nil when there is none.
    public func min<T: _Persistable>(ofProperty property: String) -> T? { aggregate(.min, property) }

    /// The largest value of a property, or nil when there is none.
    public func max<T: _Persistable>(ofProperty property: String) -> T? { aggregate(.max, property) }

    /// The sum of a numeric property (0 for no objects).
    public func sum<T: _Persistable>(ofProperty property: String) -> T { aggregate(.sum, property) ?? T._rlmDefault }

    /// The average of a numeric property, or nil for no objects.
    public func average<T: _Persistable>(ofProperty property: String) -> T? { aggregate(.average, property) }

    private func aggregate<T: _Persistable>(_ kind: CoreEngine.Results.Aggregate, _ name: String) -> T? {
        engineOrTrap {
            let info = try engineResults.classInfo.requireProperty(named: name)
            guard let value = try engineResults.aggregate(kind, of: info), !value.isNull else { return nil }
            return try T._rlmConvert(value.swiftValue)
        }
    }

    // MARK: Key-value coding

    /// The value of a property (or key path) of every object, in order.
    public func value(forKey key: String) -> [Any?] { value(forKeyPath: key) }

    /// The values of a key path of every object, in order; through a to-many link, each object's
    /// values as an array.
    public func value(forKeyPath keyPath: String) -> [Any?] {
        engineOrTrap {
            // A property of the objects themselves: one column read.
            if let info = engineResults.classInfo.property(named: keyPath), info.collection == .none, info.type != .object,
               info.type != .linkingObjects {
                return try engineResults.values(of: info).map(\.swiftValue)
            }
            let path = try engineResults.valueListPath(keyPath)
            let count = try engineResults.count()
            let lists = try engineResults.valueLists(ofKeyPath: path, start: 0, maxCount: count)
            return lists.map { values -> Any? in
                values.count == 1 ? values[0].swiftValue : values.map(\.swiftValue)
            }
        }
    }

    /// The value of a property of every object, in order. `dogs.map(\.name)` reads the name
    /// column in one pass, where the closure form of `map` makes an object per result; a key path
    /// that goes further (`\.owner?.name`, `\.name.count`) maps object by object, as `Sequence`
    /// does.
    public func map<V: _Persistable>(_ keyPath: KeyPath<Element, V>) -> [V] {
        if let info = Self.storedScalar(keyPath, in: engineResults.classInfo) {
            let realm = handle
            return engineOrTrap {
                if let numbers = try plainNumbers(V.self, of: info) { return numbers }
                // A loop, not `map`: in this generic context `map` went through the collection's
                // witnesses for every element, several times the cost of converting it.
                let values = try engineResults.values(of: info)
                var mapped: [V] = []
                mapped.reserveCapacity(values.count)
                for value in values { mapped.append(try V._rlmFrom(_StoredValue(value), in: realm)) }
                return mapped
            }
        }
        return lazy.map { $0[keyPath: keyPath] }
    }

    /// A required `Int` or `Double` property's values (`map(\.id)`) read as plain numbers
    /// straight into the array, without a `Value` per object; nil for any other type.
    private func plainNumbers<V: _Persistable>(_ type: V.Type, of info: PropertyInfo) throws -> [V]? {
        guard !info.isOptional else { return nil }
        if V.self == Int.self, info.type == .int {
            var ints: [Int] = []
            ints.reserveCapacity(try engineResults.count())
            _ = try engineResults.readNumbers(of: info, start: 0, maxCount: .max) { _, number in
                if case .int(let int) = number { ints.append(Int(int)) } else { ints.append(0) }
            }
            return unsafeBitCast(ints, to: [V].self)
        }
        if V.self == Double.self, info.type == .double {
            var doubles: [Double] = []
            doubles.reserveCapacity(try engineResults.count())
            _ = try engineResults.readNumbers(of: info, start: 0, maxCount: .max) { _, number in
                if case .double(let double) = number { doubles.append(double) } else { doubles.append(0) }
            }
            return unsafeBitCast(doubles, to: [V].self)
        }
        return nil
    }

    /// The scalar property a key path reads when it is one property of the objects and nothing
    /// more (`_KeyPathRecorder.singlePropertyName`), else nil (and `map` reads object by object).
    private static func storedScalar(_ keyPath: PartialKeyPath<Element>, in classInfo: ClassInfo) -> PropertyInfo? {
        guard let name = _KeyPathRecorder.singlePropertyName(of: keyPath),
              let info = classInfo.property(named: name), info.collection == .none,
              info.type != .object, info.type != .linkingObjects else { return nil }
        return info
    }

    /// Writes a value to a property of every object (inside a write).
    public func setValue(_ value: Any?, forKey key: String) {
        engineOrTrap {
            let info = try engineResults.classInfo.requireProperty(named: key)
            try engineResults.setValue(try Value(swiftValue: value), for: info)
        }
    }

    // MARK: Notifications

    /// Calls `block` with the results when they are first evaluated and again after each commit
    /// that changes them (objects added, removed, moved or modified), from any thread or process.
    ///
    /// Blocks are called on this thread through its run loop (the main queue on the main
    /// thread), which must be running; commits of this thread deliver on their return.
    /// - Parameter keyPaths: what counts as a modification (`["name", "toys.brand"]`); nil for
    ///   every property of the objects and of the objects they link to.
    /// - Note: an unknown key path, a frozen realm or a call inside a write transaction calls
    ///   `block` with `.error` at once, and the token returned is already invalidated.
    public func observe(keyPaths: [String]? = nil, _ block: @escaping (RealmCollectionChange<Results<Element>>) -> Void) -> NotificationToken {
        let engineResults = self.engineResults
        return handle.observeOnRunLoop({ try engineResults.observe(keyPaths: keyPaths, $0) },
                                       collection: { Results(engineResults, handle: $0) }, block)
    }
}

/// A property to sort by and the direction.
public struct SortDescriptor: Sendable, Equatable {
    /// The property to sort by, or a key path through to-one links.
    public var keyPath: String
    /// Whether smaller values come first.
    public var ascending: Bool

    /// Sorts by `keyPath`, smaller values first unless `ascending` is false.
    public init(keyPath: String, ascending: Bool = true) {
        self.keyPath = keyPath
        self.ascending = ascending
    }

    /// The same property, the other way.
    public var reversed: SortDescriptor { SortDescriptor(keyPath: keyPath, ascending: !ascending) }
}
