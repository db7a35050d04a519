import XCTest
import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// A thread-safe counter that can be waited on.
final class Counter: @unchecked Sendable {
    private let lock = NSLockLike()
    private var count = 0

    var value: Int { lock.locked { count } }
    func increment() { lock.locked { count += 1 } }

    /// Waits until the count reaches `target`; false on timeout.
    func wait(atLeast target: Int, seconds: Double) -> Bool {
        let deadline = Double(DispatchTime.now().uptimeNanoseconds) / 1e9 + seconds
        while value < target {
            if Double(DispatchTime.now().uptimeNanoseconds) / 1e9 > deadline { return false }
            usleep(5_000)
        }
        return true
    }
}

/// A mutex for test helpers (pthread, as the engine's).
final class NSLockLike: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    init() { pthread_mutex_init(&mutex, nil) }
    func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return body()
    }
}

/// A started thread that can be joined.
final class TestThread: @unchecked Sendable {
    var thread = pthread_t()
    let body: () throws -> Void
    init(_ body: @escaping () throws -> Void) { self.body = body }
    func join() { pthread_join(thread, nil) }
}

/// Starts a thread running `body`; `stackSize` (bytes) for a thread smaller than the default.
func spawn(stackSize: Int? = nil, _ body: @escaping () throws -> Void) throws -> TestThread {
    let handle = TestThread(body)
    let context = Unmanaged.passRetained(handle).toOpaque()
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    if let stackSize { pthread_attr_setstacksize(&attributes, stackSize) }
    let rc = pthread_create(&handle.thread, &attributes, { context in
        let handle = Unmanaged<TestThread>.fromOpaque(context!).takeRetainedValue()
        do { try handle.body() } catch { XCTFail("thread failed: \(error)") }
        return nil
    }, context)
    guard rc == 0 else { throw XCTSkip("pthread_create failed") }
    return handle
}
