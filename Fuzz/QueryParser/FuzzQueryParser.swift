// Coverage-guided fuzzing of the query parser (and of printing what it parsed).
//
// Built with `-Xswiftc -sanitize=fuzzer,address -Xswiftc -DREALMDB_FUZZ` (tests/fuzz/run_swift_fuzz.sh)
// this is a libFuzzer target; built plainly (as `swift build` does) it replays the files and
// folders named on its command line through the same function, which is how CI keeps every
// corpus entry and every crash found a regression test.
import CoreEngine
import FuzzSupport
#if canImport(Glibc)
import Glibc
#endif

/// One input: any bytes, as UTF-8 text. Parsing must throw or succeed, never trap; what parsed
/// must print to text that parses again to the same tree.
func fuzzOne(_ bytes: UnsafeRawBufferPointer) {
    let text = String(decoding: bytes, as: UTF8.self)
    guard let query = try? QueryParser.parse(text) else { return }
    let printed = query.description
    guard let again = try? QueryParser.parse(printed) else {
        fatalError("the description of a parsed query does not parse: \(printed)")
    }
    if again != query { fatalError("parse(description) differs from the parsed query: \(printed)") }
}

#if REALMDB_FUZZ
/// The entry libFuzzer's own main calls, when it is the one linked.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    fuzzOne(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
#endif

@main
enum FuzzTarget {
    static func main() { exit(fuzzMain(fuzzOne)) }
}
