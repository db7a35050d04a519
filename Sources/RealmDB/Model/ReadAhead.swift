import CoreEngine
import Foundation

/// Values of managed objects read before they are asked for, in one engine call, and used while
/// the realm shows the version they were read at (its change counter has not moved: no refresh,
/// no write since). Objects handed out by a `Results` share a page (one call per property for up
/// to `ResultsPage.size` objects); an object read on its own reads all its single values at
/// its first access (`ObjectRow`). A stale read-ahead is ignored: reads go to the engine.
enum ReadAhead {
    case page(ResultsPage, Int)
    case row(ObjectRow)

    /// The value of `property` read ahead, or nil (stale, or not read ahead).
    @inline(__always)
    func value(of property: BoundProperty) throws -> Value? {
        guard let slot = property.slot else { return nil }
        switch self {
        case .page(let page, let position): return try page.value(of: property, slot: slot, at: position)
        case .row(let row): return row.value(slot: slot)
        }
    }
}

/// The objects at some positions of a results' keys, and the columns read for them so far.
final class ResultsPage {
    static let size = 256

    let realm: CoreEngine.Realm
    let classInfo: ClassInfo
    let keys: ArraySlice<Int64>
    /// Whether every key was a live object at `stamp` (the results found them at that version),
    /// so that reading a column skips the per-object presence checks.
    let keysAreLive: Bool
    /// For a live realm: its plain writes since `stamp` leave the other objects' values current.
    private let shared: SharedHandleState?
    private let stamp: UInt64
    /// Frozen results' objects may be read on several threads at once: only then are the
    /// columns locked (a live realm's objects are used on its thread alone, and every read of a
    /// property comes here, where a lock cost more than the read).
    private let lock: NSLock?
    /// By slot (`BoundProperty.slot`): the values of the page's objects, once read.
    private var columns: [[Value]?] = []
    /// Set when a column read found one of the page's objects deleted: the page then reads
    /// nothing ahead, and each object reads its own values (the deleted one fails, as it should;
    /// the others do not fail with it).
    private var hasDeletedObject = false

    /// - Parameter keysFoundAt: the change counter's value when the results found `keys`, or
    ///   nil when unknown (each object's presence is then checked as its column is read).
    init(handle: RealmHandle, classInfo: ClassInfo, keys: ArraySlice<Int64>, keysFoundAt: UInt64?) {
        realm = handle.engine
        self.classInfo = classInfo
        self.keys = keys
        keysAreLive = keysFoundAt == realm.changeCounter.address.pointee
        shared = realm.isFrozen ? nil : handle.shared
        stamp = realm.changeCounter.address.pointee
        lock = realm.isFrozen ? NSLock() : nil
    }

    /// Whether the value of the object at `position` read at `stamp` is what the realm shows.
    private func isCurrent(at position: Int) -> Bool {
        let now = realm.changeCounter.address.pointee
        if now == stamp { return true }
        guard let shared else { return false }
        return shared.ownPlainWrites.keepsCurrent(readAt: stamp, now: now, table: classInfo.tableID,
                                                  key: keys[keys.startIndex + position])
    }

    func value(of property: BoundProperty, slot: Int, at position: Int) throws -> Value? {
        guard isCurrent(at: position) else { return nil }
        lock?.lock()
        let known = slot < columns.count ? columns[slot]?[position] : nil
        let readsAhead = !hasDeletedObject
        lock?.unlock()
        if let known { return known }
        guard readsAhead else { return nil }
        // Current (checked above): the realm is at `stamp`, or only this thread's plain writes
        // moved it since, and those delete nothing, so keys live at `stamp` still are.
        let column: [Value]
        do {
            column = try realm.values(of: property.info, in: classInfo, keys: keys, checkPresence: !keysAreLive)
        } catch let error as DBError where error.code == .invalidated {
            lock?.lock()
            hasDeletedObject = true
            lock?.unlock()
            return nil
        }
        guard isCurrent(at: position) else { return nil }
        lock?.lock()
        if columns.count <= slot { columns.append(contentsOf: repeatElement(nil, count: slot + 1 - columns.count)) }
        columns[slot] = column
        lock?.unlock()
        return column[position]
    }
}

/// One object's single values, read together at the first access.
final class ObjectRow {
    private let realm: CoreEngine.Realm
    private let stamp: UInt64
    /// By slot (`BoundProperty.slot`).
    private let values: [Value]

    /// Reads `properties`, the binding's single-valued properties in slot order.
    init(accessor: ObjectAccessor, properties: [PropertyInfo]) throws {
        realm = accessor.realm
        stamp = realm.changeCounter.address.pointee
        values = try accessor.values(of: properties)
    }

    func value(slot: Int) -> Value? {
        guard realm.changeCounter.address.pointee == stamp, slot < values.count else { return nil }
        return values[slot]
    }
}

/// The pages a `Results` value has handed out objects from, for the version they were read at.
final class ResultsReadAhead {
    /// Frozen results may be read on several threads at once.
    private let lock = NSLock()
    /// The counter value the pages were started at (all made since).
    private var stamp: UInt64 = 0
    /// The key array the pages were cut from (its storage, and its count).
    private var keysIdentity: (UnsafeRawPointer?, Int) = (nil, 0)
    private var pages: [Int: ResultsPage] = [:]
    private var cachedBinding: ClassBinding?
    /// How many pages were made (for tests: a loop of plain writes keeps its pages).
    private(set) var pagesMade = 0

    /// The page holding `position` (made on first use). When the counter moved, the pages are
    /// kept only if `keys` is the very array they were cut from (the engine kept its keys:
    /// nothing since changed which objects the results hold, or their order) and only this
    /// thread's plain writes moved it; each page then serves the objects not written since
    /// (`ResultsPage.isCurrent`). Otherwise all are dropped: a page's keys must be the keys
    /// `Results.subscript` materializes. (Iteration keeps its own pages, over the keys it
    /// started with.)
    func page(containing position: Int, of keys: [Int64], _ results: CoreEngine.Results,
              handle: RealmHandle) -> (ResultsPage, Int) {
        lock.lock()
        defer { lock.unlock() }
        let current = results.realm.changeCounter.address.pointee
        let identity = keys.withUnsafeBufferPointer { (UnsafeRawPointer($0.baseAddress), $0.count) }
        if current != stamp {
            let kept = identity == keysIdentity && !results.realm.isFrozen
                && handle.shared.ownPlainWrites.covers(from: stamp, to: current)
            if !kept {
                pages.removeAll(keepingCapacity: true)
                stamp = current
                keysIdentity = identity
            }
        } else if identity != keysIdentity {
            pages.removeAll(keepingCapacity: true)
            keysIdentity = identity
        }
        let number = position / ResultsPage.size
        let offset = position - number * ResultsPage.size
        if let page = pages[number] { return (page, offset) }
        let start = number * ResultsPage.size
        // `keys` are the results' keys of the current version (`ObjectSource.element(at:)` just
        // read them), unless the results are a snapshot, whose objects may be gone since.
        let page = ResultsPage(handle: handle, classInfo: results.classInfo,
                               keys: keys[start..<Swift.min(start + ResultsPage.size, keys.count)],
                               keysFoundAt: results.isSnapshot ? nil : current)
        pages[number] = page
        pagesMade += 1
        return (page, offset)
    }

    func binding(_ type: Object.Type, _ classInfo: ClassInfo, _ handle: RealmHandle) -> ClassBinding {
        lock.lock()
        defer { lock.unlock() }
        if let cachedBinding, cachedBinding.classInfo === classInfo { return cachedBinding }
        let binding = handle.binding(of: type, classInfo: classInfo)
        cachedBinding = binding
        return binding
    }
}
