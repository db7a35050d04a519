#if canImport(Glibc)
import Glibc
#endif

/// The memory behind the strings and binaries one thread's calls lend their C caller: valid
/// until that thread's next call that reads values succeeds (`releaseAll`), or the thread exits.
///
/// Copies go one after another into a chunk kept for the thread's life, so that reading a
/// column of strings costs a copy each rather than a `malloc` and a `free` each. A value larger
/// than a quarter of a chunk gets memory of its own, freed at the next `releaseAll`, as are
/// chunks beyond the first.
final class LentMemory {
    private static let chunkSize = 64 * 1024
    /// Standard-size chunks; the first is kept across `releaseAll`.
    private var chunks: [UnsafeMutableRawPointer] = []
    /// Values too large for a chunk.
    private var large: [UnsafeMutableRawPointer] = []
    /// Where the next copy goes in the last chunk, and how many bytes are left there.
    private var next: UnsafeMutableRawPointer?
    private var room = 0

    deinit {
        releaseAll()
        for chunk in chunks { free(chunk) }
    }

    /// A copy of `bytes` (at least one byte of memory, 8-byte aligned).
    func copy(_ bytes: UnsafeRawBufferPointer) -> UnsafeMutableRawPointer {
        let size = (max(bytes.count, 1) + 7) & ~7
        let destination: UnsafeMutableRawPointer
        if size > Self.chunkSize / 4 {
            destination = malloc(size)!
            large.append(destination)
        } else {
            if size > room {
                let chunk = malloc(Self.chunkSize)!
                chunks.append(chunk)
                next = chunk
                room = Self.chunkSize
            }
            destination = next!
            next = destination + size
            room -= size
        }
        if let base = bytes.baseAddress, bytes.count > 0 { destination.copyMemory(from: base, byteCount: bytes.count) }
        return destination
    }

    /// Ends every loan: keeps the first chunk for the next call, frees the rest.
    func releaseAll() {
        for pointer in large { free(pointer) }
        large.removeAll(keepingCapacity: true)
        while chunks.count > 1 { free(chunks.removeLast()) }
        next = chunks.first
        room = chunks.isEmpty ? 0 : Self.chunkSize
    }
}
