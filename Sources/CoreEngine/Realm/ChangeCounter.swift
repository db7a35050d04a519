/// A number that changes whenever what a realm shows may have changed: a write through it (every
/// object created, value set, object deleted, collection changed, savepoint rolled back), and
/// every change of its transaction (refresh, a write begun, committed or cancelled, invalidate).
///
/// It lives at a fixed address for the realm's life, so that a binding can cache the values it
/// read and check them with one load instead of a call: a value read while the counter held `n`
/// is current while it still holds `n` (see `db_realm_get_change_counter`). It only grows.
/// (`Realm.bindingCounter` is another of its kind: it moves when the classes are bound again.)
package final class ChangeCounter: @unchecked Sendable {
    package let address: UnsafeMutablePointer<UInt64>

    init() {
        address = .allocate(capacity: 1)
        address.initialize(to: 1)
    }

    deinit { address.deallocate() }

    @inline(__always) func bump() { address.pointee &+= 1 }
}
