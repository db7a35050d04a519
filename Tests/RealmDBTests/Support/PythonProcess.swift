import Foundation
import XCTest

/// Another process driving the same realm file through libdb.so: the Python binding of this
/// checkout, on the debug library SwiftPM built beside these tests.
final class PythonProcess {
    let process = Process()
    private let output = Pipe()
    private let errors = Pipe()
    private var buffered = Data()

    /// Starts `python3 -c source`, with `PATH` (a Python variable) set to `realmPath`.
    init(_ source: String, realmPath: String) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let library = root.appendingPathComponent(".build/debug/libdb.so").path
        guard FileManager.default.fileExists(atPath: library) else {
            throw XCTSkip("libdb.so is not built at \(library) (swift build builds it)")
        }
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "PATH = \(Self.pythonString(realmPath))\n" + source]
        var environment = ProcessInfo.processInfo.environment
        environment["REALMDB_LIBRARY"] = library
        environment["PYTHONPATH"] = root.appendingPathComponent("bindings/python").path
        environment["PYTHONUNBUFFERED"] = "1"
        process.environment = environment
        process.standardOutput = output
        process.standardError = errors
        try process.run()
    }

    /// The next line the program prints (nil at its end).
    func readLine() -> String? {
        while true {
            if let newline = buffered.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffered[buffered.startIndex..<newline], as: UTF8.self)
                buffered.removeSubrange(buffered.startIndex...newline)
                return line
            }
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { return buffered.isEmpty ? nil : String(decoding: buffered, as: UTF8.self) }
            buffered.append(chunk)
        }
    }

    /// Waits for the end; returns the exit status and what it wrote to stderr.
    func finish() -> (status: Int32, errors: String) {
        let complaint = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: complaint, as: UTF8.self))
    }

    /// Runs a program to its end and returns what it printed.
    static func run(_ source: String, realmPath: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let python = try PythonProcess(source, realmPath: realmPath)
        var printed = ""
        while let text = python.readLine() { printed += text + "\n" }
        let (status, errors) = python.finish()
        XCTAssertEqual(status, 0, errors, file: file, line: line)
        return printed
    }

    static func pythonString(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }
}
