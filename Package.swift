// swift-tools-version:6.0
// realmdb: an embedded, Realm-style object database. The engine (CoreEngine) is Swift;
// its public face is the C ABI in libdb.so (product "db", target CAPI), declared in include/db.h.
import PackageDescription

let exportsMap = Context.packageDirectory + "/exports.map"

// Release builds of the library: exclusivity is checked at run time in debug builds (every test
// suite runs on them), not on each access to a class's stored property in release builds, where
// those checks cost about a tenth of a point read (callgrind: swift_beginAccess).
let releaseSpeed: [SwiftSetting] = [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]

let package = Package(
    name: "realmdb",
    products: [
        // libdb.so: the only product. Exports only db_* symbols (see exports.map).
        .library(name: "db", type: .dynamic, targets: ["CAPI"]),
        // The typed Swift API (Realm's Swift SDK names: Object, @Persisted, Realm, Results, List),
        // straight over the engine.
        .library(name: "RealmDB", targets: ["RealmDB"]),
    ],
    targets: [
        // Debian's liblmdb-dev, seen through Sources/CLMDB/module.modulemap.
        .systemLibrary(name: "CLMDB", path: "Sources/CLMDB", providers: [.apt(["liblmdb-dev"])]),
        // LMDB calls that a damaged file cannot turn into a dead process (asserts, SIGSEGV, SIGBUS),
        // and renameat2, which Swift's Glibc module lacks (creating a file, realmdb_files.h).
        // DWARF 4, as the Swift code's: valgrind 3.19 (Debian 12) cannot read clang's default DWARF 5.
        .target(name: "CLMDBGuard", dependencies: ["CLMDB"], path: "Sources/CLMDBGuard",
                cSettings: [.unsafeFlags(["-gdwarf-4"])]),
        // CRC32C checksums of stored records, and the memory of records already verified.
        .target(name: "CChecksum", path: "Sources/CChecksum", cSettings: [.unsafeFlags(["-gdwarf-4", "-O2"])]),
        // The inner loops of scans and aggregates over a column block's values (AVX2 where the
        // CPU has it); -O2 in debug builds too, as the tests run on them.
        .target(name: "CColumnKernels", path: "Sources/CColumnKernels", cSettings: [.unsafeFlags(["-gdwarf-4", "-O2"])]),
        // C structs, enums and callback typedefs shared by Swift and include/db.h.
        .target(name: "CDBTypes", path: "Sources/CDBTypes"),
        // The engine: storage, schema, objects, transactions. Knows nothing about C callers.
        .target(name: "CoreEngine", dependencies: ["CLMDB", "CLMDBGuard", "CChecksum", "CColumnKernels"], path: "Sources/CoreEngine",
                swiftSettings: releaseSpeed),
        // The only place with C exports (@c functions).
        .target(
            name: "CAPI",
            dependencies: ["CoreEngine", "CDBTypes"],
            path: "Sources/CAPI",
            swiftSettings: releaseSpeed,
            linkerSettings: [.unsafeFlags(["-Xlinker", "--version-script=\(exportsMap)"])]
        ),
        // The typed Swift API over CoreEngine's package declarations (no detour through the C API).
        // Swift 6 language mode: its concurrency checking is complete, and errors.
        .target(name: "RealmDB", dependencies: ["CoreEngine"], path: "Sources/RealmDB",
                swiftSettings: releaseSpeed + [.swiftLanguageMode(.v6)]),
        // `swift run realmdb-swift-example`: a live query in Swift (README, "Swift").
        .executableTarget(name: "realmdb-swift-example", dependencies: ["RealmDB"], path: "examples/swift"),
        // The C benchmark's workload through RealmDB and through CoreEngine (bench/run_swift_bench.sh).
        .executableTarget(name: "realmdb-swift-bench", dependencies: ["RealmDB", "CoreEngine"], path: "bench/swift",
                          swiftSettings: releaseSpeed),
        .testTarget(name: "RealmDBTests", dependencies: ["RealmDB"], path: "Tests/RealmDBTests"),
        .testTarget(name: "CoreEngineTests", dependencies: ["CoreEngine"], path: "Tests/CoreEngineTests"),
        // Fuzz targets: libFuzzer targets when built with -sanitize=fuzzer -DREALMDB_FUZZ
        // (tests/fuzz/run_swift_fuzz.sh), corpus replayers otherwise (run by scripts/test.sh).
        .target(name: "FuzzSupport", path: "Fuzz/Support"),
        .executableTarget(name: "FuzzQueryParser", dependencies: ["CoreEngine", "FuzzSupport"], path: "Fuzz/QueryParser"),
        .executableTarget(name: "FuzzFileOpen", dependencies: ["CoreEngine", "FuzzSupport"], path: "Fuzz/FileOpen"),
    ],
    swiftLanguageModes: [.v5]
)
