#if canImport(Glibc)
import Glibc
#endif

/// Where a realm stands with the turn to write (see `WriteTurn`) outside a write transaction.
package enum WriteReservation: Sendable {
    case none
    /// A thread waits for the turn on this realm's behalf (`reserveWrite`).
    case waiting
    /// The realm holds the turn: its next `beginWrite` starts without waiting.
    case reserved
}

/// Waiting for the turn to write off the realm's own thread, for threads that must not block (an
/// event loop): another thread waits (`reserveWrite`), then the owner begins the write at once.
extension Realm {
    /// Waits until no other writer (in this process or another) holds the turn to write this
    /// file, then reserves it for this realm's next `beginWrite`, which starts without waiting.
    /// The only call on a live realm that may be made on any thread. Until the write begins (and
    /// after, until it ends) every other writer of the file waits: begin promptly, or give the
    /// reservation back with `releaseWriteReservation`. Closing the realm gives it back too, and
    /// ends a wait in progress with `.closedRealm`.
    /// - Throws: `.closedRealm`; `.readOnly`; `.wrongTransactionState` when the realm is in a
    ///   write, holds a reservation or is being waited for already, or its thread holds the turn
    ///   through another realm; `.logic` for a frozen realm; `.storage`.
    package func reserveWrite() throws {
        let held: LMDBEnvironment = try lock.withLock {
            guard let environment else { throw DBError(.closedRealm, "the realm has been closed") }
            try requireOwnProcess()
            try requireLive("write")
            if configuration.readOnly { throw DBError(.readOnly, "the realm was opened read-only") }
            if transaction?.isWrite == true { throw DBError(.wrongTransactionState, "the realm is already in a write transaction") }
            switch writeReservation {
            case .none: break
            case .waiting: throw DBError(.wrongTransactionState, "another thread is already waiting for this realm's turn to write")
            case .reserved: throw DBError(.wrongTransactionState, "the realm holds its turn to write already: begin the write")
            }
            writeReservation = .waiting
            environment.retain()  // registered until the wait ends, even if the realm closes
            return environment
        }
        defer { held.release() }
        do {
            try held.writeTurn.take(for: ownerThread, shouldStop: { [self] in isClosed })
        } catch {
            lock.withLock { if writeReservation == .waiting { writeReservation = .none } }
            throw error
        }
        try lock.withLock {
            guard environment != nil else {  // closed after the turn came
                held.writeTurn.give()
                throw DBError(.closedRealm, "the realm was closed while waiting for its turn to write")
            }
            writeReservation = .reserved
        }
    }

    /// Gives back the turn `reserveWrite` reserved, if the realm still holds it without having
    /// begun the write. From any thread.
    /// - Returns: whether a reservation was given back.
    /// - Throws: `.wrongThread` in a fork child (the turn is the parent's).
    @discardableResult
    package func releaseWriteReservation() throws -> Bool {
        try lock.withLock {
            try requireOwnProcess()
            guard writeReservation == .reserved, let environment else { return false }
            writeReservation = .none
            environment.writeTurn.give()
            return true
        }
    }
}
