import CoreEngine
import Foundation

/// One open handle of a realm file on one thread: what a `Realm` value wraps, and what its
/// objects and collections hold. `Realm(configuration:)` returns a handle to the thread's open
/// realm of the same file and schema (`SharedHandleState`), so objects read through two `Realm`
/// values of one thread are the same version.
public final class RealmHandle {
    /// What the thread's handles of this file share.
    let shared: SharedHandleState
    // Copied from `shared`: read at every access to an object.
    let engine: CoreEngine.Realm
    let configuration: Realm.Configuration
    /// The classes of the schema, by schema name.
    let types: [String: Object.Type]

    init(_ shared: SharedHandleState) {
        self.shared = shared
        engine = shared.engine
        configuration = shared.configuration
        types = shared.types
    }

    /// The class info of a model class, with a message that says how to add a missing class.
    func classInfo(of type: Object.Type) throws(RealmError) -> ClassInfo {
        if let last = lastBinding(of: type) { return last.classInfo }
        let name = ObjectSchemaDiscovery.metadata(of: type).className  // cached: className() formats a type name
        do {
            return try engine.classInfo(named: name)
        } catch let error as DBError where error.code == .notFound {
            throw RealmError(.schemaInvalid, "\(name) is not in this realm's schema: list it in Realm.Configuration.objectTypes")
        } catch {
            throw RealmError(error as! DBError)
        }
    }

    /// Stores an unmanaged object (and the unmanaged objects it links to); returns the stored
    /// object of a managed one.
    func manage(_ object: Object, update: Realm.UpdatePolicy) throws -> ObjectAccessor {
        if let managed = object.managed {
            guard managed.realm === engine else {
                throw RealmError(.logic, "the \(type(of: object).className()) object is managed by another realm handle (another file or thread); read it through this realm first")
            }
            return managed
        }
        if object is EmbeddedObject {
            throw RealmError(.logic, "an embedded object (\(type(of: object).className())) is not added on its own: assign it to a property of its parent")
        }
        let classInfo = try classInfo(of: type(of: object))
        return try store(object, as: classInfo) { values in
            try translatingErrors { try self.engine.create(classInfo, values: values, upsert: update.upsertMode) }
        }
    }

    /// Stores an unmanaged object of the class `classInfo` (`classInfo(of:)` its type): `create`
    /// makes the stored object from its single values (a top-level object, or an embedded one in
    /// its parent), then links and collections are set.
    func store(_ object: Object, as classInfo: ClassInfo,
               create: ([(PropertyInfo, Value)]) throws -> ObjectAccessor) throws -> ObjectAccessor {
        let binding = binding(of: type(of: object), classInfo: classInfo)
        var values: [(PropertyInfo, Value)] = []
        var later: [(BoundProperty, AnyPersistedField)] = []
        for (field, bound) in zip(binding.fields, binding.properties) {
            guard let bound, bound.info.type != .linkingObjects else { continue }
            if bound.info.collection != .none || bound.info.type == .object {
                later.append((bound, field))
            } else {
                values.append((bound.info, try field.storedValue(of: object, in: self)))
            }
        }
        let accessor = try create(values)
        object.attach(accessor, handle: self, binding: binding)
        // Links and collections after the object exists, so that a cycle of new objects ends
        // here. Their values are still in the fields: the getters now read the realm.
        for (bound, field) in later {
            try field.copyValue(of: object, to: _ManagedProperty(object: accessor, bound: bound, realm: self))
        }
        return accessor
    }

    /// A frozen handle reading this handle's current version.
    func frozen() throws(RealmError) -> RealmHandle {
        if engine.isFrozen { return self }
        let frozenEngine = try translatingErrors { try self.engine.freeze() }
        return RealmHandle(SharedHandleState(engine: frozenEngine, configuration: configuration, types: types, live: shared))
    }

    /// A handle to the live realm a frozen one came from.
    func live() throws(RealmError) -> RealmHandle {
        guard engine.isFrozen else { return self }
        guard let live = shared.live, !live.engine.isClosed else {
            throw RealmError(.closedRealm, "the realm this one was frozen from has been closed")
        }
        return RealmHandle(live)
    }

    // MARK: The thread's handles

    /// This thread's open realms, by file (weakly: one closes when no `Realm`, object or
    /// collection holds a handle to it).
    private final class ThreadHandles {
        var states: [String: WeakState] = [:]
    }

    private struct WeakState { weak var state: SharedHandleState? }

    private static let threadKey = "RealmDB.RealmHandle.threadHandles"

    /// A handle to the thread's open realm of the configuration's file, or to a new one.
    static func open(_ configuration: Realm.Configuration) throws(RealmError) -> RealmHandle {
        let key = configuration.cacheKey
        let cache: ThreadHandles
        if let existing = Thread.current.threadDictionary[threadKey] as? ThreadHandles {
            cache = existing
        } else {
            cache = ThreadHandles()
            Thread.current.threadDictionary[threadKey] = cache
        }
        let (schema, types) = try configuration.resolvedSchema()
        if let state = cache.states[key]?.state, !state.engine.isClosed,
           state.engine.configuration.schema == schema, state.configuration.readOnly == configuration.readOnly {
            return RealmHandle(state)
        }
        let engineRealm = try configuration.openEngine(schema: schema)
        let state = SharedHandleState(engine: engineRealm, configuration: configuration, types: types)
        cache.states[key] = WeakState(state: state)
        return RealmHandle(state)
    }
}

extension Realm {
    /// What `add` and `create` do when an object with the same primary key exists.
    public enum UpdatePolicy: Sendable {
        /// Fail (the default): adding a second object with a primary key already stored is a programming error.
        case error
        /// Update the stored object, writing only the values that differ (so observers see only those).
        case modified
        /// Update the stored object, writing every value.
        case all

        var upsertMode: UpsertMode {
            switch self {
            case .error: return .none
            case .modified: return .modified
            case .all: return .all
            }
        }
    }
}
