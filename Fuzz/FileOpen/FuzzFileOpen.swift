// Coverage-guided fuzzing of opening realm files: the input is a file's bytes. Opening, reading
// every class and the whole-file check must throw (a FileFormatError) or succeed, never trap or
// crash. Built as a libFuzzer target or as a corpus replayer, as Fuzz/QueryParser/main.swift.
import CoreEngine
import FuzzSupport
#if canImport(Glibc)
import Glibc
#endif

nonisolated(unsafe) let directory: String = {
    var template = Array("/tmp/realmdb-fuzz-open-XXXXXX".utf8CString)
    return String(cString: mkdtemp(&template)!)
}()

func fuzzOne(_ bytes: UnsafeRawBufferPointer) {
    let path = directory + "/input.realm"
    unlink(path)
    unlink(path + "-lock")
    guard let file = fopen(path, "wb") else { return }
    if bytes.count > 0 { fwrite(bytes.baseAddress, 1, bytes.count, file) }
    fclose(file)
    var configuration = RealmConfiguration(path: path)
    configuration.readOnly = true
    guard let realm = try? Realm(configuration: configuration) else { return }
    defer { realm.close() }
    _ = try? realm.check()
    for classInfo in realm.classes {
        guard let keys = try? realm.objectKeys(classInfo) else { continue }
        for key in keys.prefix(64) {
            guard let object = try? realm.object(classInfo, key: key) else { continue }
            for property in classInfo.properties { _ = try? object.value(of: property) }
        }
    }
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
