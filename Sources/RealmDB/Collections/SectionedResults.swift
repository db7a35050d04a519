import CoreEngine
import Foundation

/// Results grouped into sections by a key, for lists with headers:
///
/// ```swift
/// let byInitial = realm.objects(Dog.self).sectioned(sortDescriptors: [SortDescriptor(keyPath: "name")]) {
///     String($0.name.prefix(1))
/// }
/// for section in byInitial { print(section.key, section.map(\.name)) }
/// ```
///
/// Sections appear in sort order and hold their objects in results order; the first sort
/// descriptor should decide the key. Live and lazy, as `Results`.
public struct SectionedResults<Key: _Persistable & Hashable, Element: Object>: RandomAccessCollection {
    let engineSections: CoreEngine.SectionedResults
    let handle: RealmHandle

    init(_ engineSections: CoreEngine.SectionedResults, handle: RealmHandle) {
        self.engineSections = engineSections
        self.handle = handle
    }

    /// The realm of the objects.
    public var realm: Realm? { Realm(handle: handle) }
    /// Whether the realm was closed.
    public var isInvalidated: Bool { engineSections.isInvalidated }
    /// Whether these are frozen sections (one version, any thread).
    public var isFrozen: Bool { engineSections.isFrozen }

    public var startIndex: Int { 0 }
    public var endIndex: Int { engineOrTrap { try engineSections.count() } }

    /// The section at a position.
    public subscript(position: Int) -> ResultsSection<Key, Element> {
        engineOrTrap { ResultsSection(try engineSections.section(at: position), sections: engineSections, handle: handle) }
    }

    /// The object at a section and a position in it (`IndexPath(indexes: [section, item])`).
    public subscript(indexPath: Foundation.IndexPath) -> Element {
        engineOrTrap {
            guard indexPath.count == 2 else {
                throw RealmError(.invalidArgument, "an index path of sectioned results has two indexes (section, item), not \(indexPath.count)")
            }
            return Element.materialize(try engineSections.object(section: indexPath[0], item: indexPath[1]), in: handle)
        }
    }

    /// The keys of the sections, in order.
    public var allKeys: [Key] {
        engineOrTrap { try engineSections.sections().map { try Key._rlmFrom(_StoredValue($0.key), in: handle) } }
    }

    /// Frozen sections: the sections of the current version, readable on any thread.
    public func freeze() -> SectionedResults<Key, Element> {
        engineOrTrap { try frozenOrError() }
    }

    /// `freeze()`, throwing instead of stopping the program (a notifier thread's hand-over).
    func frozenOrError() throws(RealmError) -> SectionedResults<Key, Element> {
        if isFrozen { return self }
        let frozenHandle = try handle.frozen()
        return SectionedResults(try translatingErrors { try engineSections.freeze() }, handle: frozenHandle)
    }

    /// The live sections frozen sections came from (on the live realm's thread).
    public func thaw() -> SectionedResults<Key, Element>? {
        engineOrTrap { isFrozen ? SectionedResults(try engineSections.thaw(), handle: try handle.live()) : self }
    }

    /// Calls `block` with the sections when first evaluated and after each commit that changes
    /// them, on this thread's run loop (see `Results.observe`). An error (unknown key path, a
    /// frozen realm, inside a write) calls `block` with `.error` at once.
    public func observe(keyPaths: [String]? = nil, _ block: @escaping (SectionedResultsChange<SectionedResults<Key, Element>>) -> Void) -> NotificationToken {
        let token = NotificationToken()
        let engineSections = self.engineSections
        do {
            try handle.startRunLoopDelivery()
            let engineToken = try translatingErrors {
                try engineSections.observe(keyPaths: keyPaths) { [weak token, weak shared = handle.shared] change in
                    guard let shared else { return }
                    let sections = SectionedResults(engineSections, handle: RealmHandle(shared))
                    if change.isInitial {
                        block(.initial(sections))
                    } else if token?.shouldDeliverChange() ?? true {
                        func paths(_ engine: [CoreEngine.IndexPath]) -> [Foundation.IndexPath] { engine.map { Foundation.IndexPath(indexes: [$0.section, $0.item]) } }
                        block(.update(sections, deletions: paths(change.deletions), insertions: paths(change.insertions),
                                      modifications: paths(change.modifications),
                                      sectionsToInsert: IndexSet(change.sectionsInserted), sectionsToDelete: IndexSet(change.sectionsDeleted)))
                    }
                }
            }
            token.attach(engineToken, keeping: handle)
        } catch {
            token.invalidate()
            block(.error(error))
        }
        return token
    }
}

extension SectionedResults {
    /// Calls `block` on `queue` with the sections when first evaluated and after each commit that
    /// changes them (see `observe(keyPaths:_:)`). The sections handed to the block are frozen
    /// (one version, readable on any thread). A thread of the library observes: sections made by
    /// a function call it on that thread.
    public func observe(keyPaths: [String]? = nil, on queue: DispatchQueue?,
                        _ block: @escaping (SectionedResultsChange<SectionedResults<Key, Element>>) -> Void) -> NotificationToken {
        guard let queue else { return observe(keyPaths: keyPaths, block) }
        return NotifierDelivery.onQueue(queue, register(keyPaths), block)
    }

    /// The frozen changes of these sections, in order, from a thread of the library.
    public var changes: AsyncStream<SectionedResultsChange<SectionedResults<Key, Element>>> { changes(keyPaths: nil) }

    /// `changes` with the key paths that count as modifications.
    public func changes(keyPaths: [String]?) -> AsyncStream<SectionedResultsChange<SectionedResults<Key, Element>>> {
        NotifierDelivery.stream(register(keyPaths)) { if case .error = $0 { true } else { false } }
    }

    /// Calls `block` isolated to `actor` with the frozen sections when first evaluated and after
    /// each commit that changes them, in order.
    public func observe<A: Actor>(keyPaths: [String]? = nil, on actor: A,
                                  _ block: @Sendable @escaping (isolated A, SectionedResultsChange<SectionedResults<Key, Element>>) -> Void) async -> NotificationToken {
        NotifierDelivery.onActor(actor, register(keyPaths), block)
    }

    /// How to observe these sections on a notifier thread: reopened through the thread's handle,
    /// each change handed over with the sections frozen.
    private func register(_ keyPaths: [String]?) -> NotifierDelivery.Register<SectionedResultsChange<SectionedResults<Key, Element>>> {
        let source = UncheckedSendable(engineSections)
        let configuration = handle.configuration
        return { token, deliver in
            let deliverBox = UncheckedSendable(deliver)
            do {
                // Reopened on the library's thread they would be live: refuse as the run loop refuses.
                if source.value.isFrozen { throw RealmError.frozenCannotBeObserved }
                let notifier = try NotifierThread.start(configuration: configuration) { handle in
                    let sections = SectionedResults(try translatingErrors { try source.value.reopened(in: handle.engine) }, handle: handle)
                    return sections.observe(keyPaths: keyPaths) { change in deliverBox.value(change.frozen()) }
                }
                token.addOnInvalidate { notifier.stop() }
            } catch {
                deliver(.error(error))
            }
        }
    }
}

/// One section of `SectionedResults`: its key and its objects.
public struct ResultsSection<Key: _Persistable & Hashable, Element: Object>: RandomAccessCollection {
    let section: CoreEngine.SectionedResults.Section
    let sections: CoreEngine.SectionedResults
    let handle: RealmHandle

    init(_ section: CoreEngine.SectionedResults.Section, sections: CoreEngine.SectionedResults, handle: RealmHandle) {
        self.section = section
        self.sections = sections
        self.handle = handle
    }

    /// The value every object of the section has for the section key.
    public var key: Key { engineOrTrap { try Key._rlmFrom(_StoredValue(section.key), in: handle) } }

    public var startIndex: Int { 0 }
    public var endIndex: Int { section.objectKeys.count }

    /// The object at a position in the section.
    public subscript(position: Int) -> Element {
        engineOrTrap {
            Element.materialize(try handle.engine.object(sections.results.classInfo, key: section.objectKeys[position]), in: handle)
        }
    }
}

/// What a sectioned results' notification block gets.
public enum SectionedResultsChange<Collection> {
    case initial(Collection)
    /// Deleted paths are in the previous sections; inserted and modified ones in the new.
    case update(Collection, deletions: [Foundation.IndexPath], insertions: [Foundation.IndexPath], modifications: [Foundation.IndexPath],
                sectionsToInsert: IndexSet, sectionsToDelete: IndexSet)
    case error(Swift.Error)
}

extension SectionedResultsChange {
    /// The same change with the sections frozen; `.error` when they cannot be (their file
    /// removed, their realm closed meanwhile), never a stop.
    func frozen<Key, Element>() -> SectionedResultsChange<SectionedResults<Key, Element>> where Collection == SectionedResults<Key, Element> {
        do {
            switch self {
            case .initial(let sections): return .initial(try sections.frozenOrError())
            case .update(let sections, let deletions, let insertions, let modifications, let sectionsToInsert, let sectionsToDelete):
                return .update(try sections.frozenOrError(), deletions: deletions, insertions: insertions, modifications: modifications,
                               sectionsToInsert: sectionsToInsert, sectionsToDelete: sectionsToDelete)
            case .error(let error): return .error(error)
            }
        } catch {
            return .error(error)
        }
    }
}

extension Results where Element: Object {
    /// Sorted by a property and sectioned by its value.
    public func sectioned<Key: _Persistable & Hashable>(by keyPath: KeyPath<Element, Key>, ascending: Bool = true) -> SectionedResults<Key, Element> {
        engineOrTrap {
            let name = try _KeyPathRecorder.name(of: keyPath)
            return SectionedResults(try translatingErrors { try engineResults.sectioned(by: name, ascending: ascending) }, handle: handle)
        }
    }

    /// Sorted by `sortDescriptors` (the first should decide the key) and sectioned by a property.
    public func sectioned<Key: _Persistable & Hashable>(by keyPath: KeyPath<Element, Key>,
                                                       sortDescriptors: [SortDescriptor]) -> SectionedResults<Key, Element> {
        engineOrTrap {
            let name = try _KeyPathRecorder.name(of: keyPath)
            let descriptors = try sortDescriptors.map {
                CoreEngine.SortDescriptor(path: try engineResults.propertyPath($0.keyPath), ascending: $0.ascending)
            }
            return SectionedResults(try translatingErrors { try engineResults.sectioned(by: name, sortedBy: descriptors) }, handle: handle)
        }
    }

    /// Sorted by `sortDescriptors` and sectioned by `keyBlock`'s value for each object (called on
    /// this thread as the sections are evaluated).
    public func sectioned<Key: _Persistable & Hashable>(sortDescriptors: [SortDescriptor],
                                                       _ keyBlock: @escaping (Element) -> Key) -> SectionedResults<Key, Element> {
        engineOrTrap {
            let descriptors = try sortDescriptors.map {
                CoreEngine.SortDescriptor(path: try engineResults.propertyPath($0.keyPath), ascending: $0.ascending)
            }
            let handle = self.handle
            return SectionedResults(engineResults.sectioned(sortedBy: descriptors) { [weak shared = handle.shared] accessor in
                guard let shared else { throw RealmError(.closedRealm, "the realm of these sections was closed") }
                let handle = RealmHandle(shared)
                // Sections observed for a queue or an actor are evaluated on a thread of the
                // library, through that thread's handle: its objects are materialized there.
                var reader = handle
                if accessor.realm !== handle.engine, let threads = try? RealmHandle.open(handle.configuration),
                   threads.engine === accessor.realm {
                    reader = threads
                }
                return try keyBlock(Element.materialize(accessor, in: reader))._rlmValue(in: reader).raw
            }, handle: handle)
        }
    }
}
