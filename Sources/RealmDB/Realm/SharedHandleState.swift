import CoreEngine
import Foundation

/// What the handles of one realm file on one thread share, and what that thread's cache finds
/// again (`RealmHandle.open`): the engine realm, the model classes bound to its schema, and
/// run-loop delivery. It lives while a handle holds it, and closes the engine realm when the
/// last one goes.
///
/// This, not `RealmHandle`, is what is referenced weakly (by the thread's cache, by a frozen
/// state for the live one it came from, by notification blocks). Every object, collection and
/// property read retains its handle; a weakly referenced object keeps its reference counts in a
/// side table, where each retain and release is a slow atomic operation, so the handles stay
/// free of weak references.
final class SharedHandleState {
    let engine: CoreEngine.Realm
    let configuration: Realm.Configuration
    /// The classes of the schema, by schema name.
    let types: [String: Object.Type]
    /// For a frozen realm's state, the live one it was frozen from.
    private(set) weak var live: SharedHandleState?
    /// Delivers notifications on the owner thread's run loop (set at the first observation).
    var runLoopDelivery: RunLoopDelivery?
    /// Model classes bound to this schema (see `ClassBinding`); a frozen realm's are used from
    /// several threads, hence the lock.
    var bindings: [ObjectIdentifier: ClassBinding] = [:]
    let bindingLock = NSLock()
    /// For a live realm (used on its thread alone): the last class looked up and its binding,
    /// while the engine's `bindingCounter` holds `stamp`. Programs look up one class again and
    /// again (`object(ofType:forPrimaryKey:)` in a loop, `add` of many objects); this answers
    /// those without the lock, the lookup by name and the dictionary.
    var lastBinding: (type: ObjectIdentifier, binding: ClassBinding, stamp: UInt64)?
    /// The plain writes made through this (live) realm, which leave other values read ahead
    /// current. Used on the owner thread only: only a live realm writes.
    var ownPlainWrites = OwnPlainWrites()

    init(engine: CoreEngine.Realm, configuration: Realm.Configuration, types: [String: Object.Type], live: SharedHandleState? = nil) {
        self.engine = engine
        self.configuration = configuration
        self.types = types
        self.live = live
    }

    /// Closes the engine realm: nothing reads through it once no handle holds it, and an
    /// observed one would otherwise stay open, holding its file and its version, until its next
    /// delivery (its notifiers hold the results they watch, which hold the realm). When the last
    /// handle goes inside such a delivery (a notification block that held it being dropped), the
    /// engine is closed by the delivery's end instead (see `closeUnlessInUse`).
    deinit { engine.closeUnlessInUse() }
}
