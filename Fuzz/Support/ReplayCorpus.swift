// The plain (non-libFuzzer) build of a fuzz target: replays corpus files through the target.
#if canImport(Glibc)
import Glibc
#endif

/// Runs `body` on every file named in `paths` (folders: every file inside, sorted), prints how
/// many inputs were replayed, and returns the exit status (2 when a path cannot be read).
public func replayCorpus(_ paths: ArraySlice<String>, _ body: (UnsafeRawBufferPointer) -> Void) -> Int32 {
    var files: [String] = []
    for path in paths {
        if let dir = opendir(path) {
            var names: [String] = []
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
                if !name.hasPrefix(".") { names.append(path + "/" + name) }
            }
            closedir(dir)
            files += names.sorted()
        } else {
            files.append(path)
        }
    }
    for file in files {
        guard let handle = fopen(file, "rb") else {
            fputs("cannot read \(file)\n", stderr)
            return 2
        }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = fread(&buffer, 1, buffer.count, handle)
            if n <= 0 { break }
            bytes += buffer[0..<n]
        }
        fclose(handle)
        bytes.withUnsafeBytes { body($0) }
    }
    print("replayed \(files.count) inputs")
    return 0
}

#if REALMDB_FUZZ
/// libFuzzer's driver (in the runtime that -sanitize=fuzzer links): runs `callback` on each input.
@_silgen_name("LLVMFuzzerRunDriver")
private func runDriver(_ argc: UnsafeMutablePointer<Int32>,
                       _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                       _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32

nonisolated(unsafe) private var fuzzTarget: ((UnsafeRawBufferPointer) -> Void)?
#endif

/// A fuzz target's main: libFuzzer's loop in a fuzz build (-DREALMDB_FUZZ), else the replay of
/// the corpus files and folders named on the command line.
public func fuzzMain(_ body: @escaping (UnsafeRawBufferPointer) -> Void) -> Int32 {
    #if REALMDB_FUZZ
    fuzzTarget = body
    var argc = CommandLine.argc
    var argv = CommandLine.unsafeArgv
    return runDriver(&argc, &argv) { data, size in
        fuzzTarget?(UnsafeRawBufferPointer(start: data, count: size))
        return 0
    }
    #else
    return replayCorpus(CommandLine.arguments.dropFirst(), body)
    #endif
}
