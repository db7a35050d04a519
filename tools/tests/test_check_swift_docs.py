"""Tests of tools/check_swift_docs.py: every public declaration of the Swift API has a `///`
comment, and the check finds one that lacks it."""
from __future__ import annotations

import sys
from pathlib import Path

TOOLS = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(TOOLS))

import check_swift_docs  # noqa: E402


def test_undocumented_declarations_are_found_and_documented_ones_pass(tmp_path):
    source = tmp_path / "Api.swift"
    source.write_text(
        "/// A documented type.\n"
        "public struct Documented {\n"
        "    /// A documented property.\n"
        "    public var name: String\n"
        "    public var undocumented: Int\n"
        "    /// Documented, above its attribute.\n"
        "    @inlinable\n"
        "    public func f() {}\n"
        "    @discardableResult\n"
        "    public func g() -> Int { 1 }\n"
        "    public var description: String { \"\" }\n"
        "    public static func _rlmHook() {}\n"
        "}\n"
        "extension Documented: Equatable {\n"
        "    public static func == (a: Documented, b: Documented) -> Bool { true }\n"
        "}\n"
        "public enum Undocumented { case a }\n",
        encoding="utf-8")
    assert list(check_swift_docs.undocumented(source)) == [5, 10, 17]
    assert check_swift_docs.main(["check_swift_docs.py", str(tmp_path)]) == 1


def test_the_swift_api_is_documented(capsys):
    assert check_swift_docs.main(["check_swift_docs.py"]) == 0, capsys.readouterr().out
