import CoreEngine
import Foundation

/// Where a `Results` reads its elements: the objects of the engine's results (`ObjectSource`),
/// or the values of a list or set, sorted or made distinct (`ValueSource`, see
/// `sorted(ascending:)`). `Results` is generic over both; each source knows its own kind, so the
/// object path materializes objects without a cast per element.
protocol ResultsSource<Element>: AnyObject {
    associatedtype Element: _Persistable
    var realm: Realm? { get }
    var isInvalidated: Bool { get }
    var isFrozen: Bool { get }
    func count() throws -> Int
    func element(at position: Int) throws -> Element
    /// An iteration over the elements held now.
    func startIteration() throws -> ResultsIteration<Element>
    func next(_ iteration: inout ResultsIteration<Element>) -> Element?
    func freeze() throws -> any ResultsSource<Element>
    /// The live source a frozen one came from, or nil when it is gone.
    func thaw() throws -> (any ResultsSource<Element>)?
    var description: String { get }
}

/// Where an iteration is: the object keys or the values it started with, and its position.
struct ResultsIteration<Element> {
    var count: Int
    var position = 0
    /// Objects: their keys, the class binding, and the page of values read ahead for them.
    var keys: [Int64] = []
    /// The change counter's value when the results found `keys` (nil for a snapshot's keys).
    var keysFoundAt: UInt64?
    var binding: ClassBinding?
    var page: ResultsPage?
    /// Values: the values themselves.
    var values: [Element] = []
}

/// The objects of the engine's results, materialized as `Element`s with their values read ahead
/// a page at a time (see `ReadAhead`).
final class ObjectSource<Element: Object>: ResultsSource {
    let engineResults: CoreEngine.Results
    let handle: RealmHandle
    /// Pages of values read ahead for the objects `element(at:)` hands out.
    let readAhead = ResultsReadAhead()

    init(_ engineResults: CoreEngine.Results, handle: RealmHandle) {
        self.engineResults = engineResults
        self.handle = handle
    }

    var realm: Realm? { Realm(handle: handle) }
    var isInvalidated: Bool { handle.engine.isClosed }
    var isFrozen: Bool { engineResults.isFrozen }

    func count() throws -> Int { try engineResults.count() }

    func element(at position: Int) throws -> Element {
        let keys = try engineResults.keys()
        guard position >= 0, position < keys.count else {
            throw RealmError(.outOfRange, "position \(position) is out of range (there are \(keys.count) objects)")
        }
        let (page, offset) = readAhead.page(containing: position, of: keys, engineResults, handle: handle)
        return Element.materialize(engineResults.classInfo, key: keys[position], in: handle,
                                   binding: readAhead.binding(Element.self, engineResults.classInfo, handle),
                                   readAhead: .page(page, offset))
    }

    func startIteration() throws -> ResultsIteration<Element> {
        let keys = try engineResults.keys()
        return ResultsIteration(count: keys.count, keys: keys,
                                keysFoundAt: engineResults.isSnapshot ? nil : handle.engine.changeCounter.address.pointee,
                                binding: handle.binding(of: Element.self, classInfo: engineResults.classInfo))
    }

    func next(_ iteration: inout ResultsIteration<Element>) -> Element? {
        let position = iteration.position
        guard position < iteration.count else { return nil }
        iteration.position += 1
        let offset = position % ResultsPage.size
        if offset == 0 || iteration.page == nil {
            let start = position - offset
            iteration.page = ResultsPage(handle: handle, classInfo: engineResults.classInfo,
                                         keys: iteration.keys[start..<Swift.min(start + ResultsPage.size, iteration.count)],
                                         keysFoundAt: iteration.keysFoundAt)
        }
        return Element.materialize(engineResults.classInfo, key: iteration.keys[position], in: handle,
                                   binding: iteration.binding!, readAhead: .page(iteration.page!, offset))
    }

    func freeze() throws -> any ResultsSource<Element> {
        if isFrozen { return self }
        let frozenHandle = try handle.frozen()
        return ObjectSource(try engineResults.freeze(), handle: frozenHandle)
    }

    func thaw() throws -> (any ResultsSource<Element>)? {
        guard isFrozen else { return self }
        return ObjectSource(try engineResults.thaw(), handle: try handle.live())
    }

    var description: String {
        (try? engineResults.description()) ?? "Results<\(Element.className())> (invalidated)"
    }
}
