import XCTest
@testable import CoreEngine

/// `FullTextSearch`: realm-core's words (ASCII letters and digits, Latin-1 letters folded) and
/// search terms (all words required, `-word` excluded, `word*` a prefix).
final class FullTextSearchTests: XCTestCase {
    func testWordsAreLowercasedRunsOfLettersAndDigitsWithLatin1AccentsRemoved() {
        XCTAssertEqual(FullTextSearch.words(of: "Abba, and THE Beatles!"), ["abba", "and", "the", "beatles"])
        XCTAssertEqual(FullTextSearch.words(of: "Crème brûlée Ñandú"), ["creme", "brulee", "nandu"])
        XCTAssertEqual(FullTextSearch.words(of: "Æble Ørsted Åse Þór Straße"), ["\u{E6}ble", "\u{F8}rsted", "\u{E5}se", "\u{FE}or", "strae"])
        XCTAssertEqual(FullTextSearch.words(of: "wi-fi 2×3 co\u{AD}op"), ["wi", "fi", "2", "3", "coop"])
        XCTAssertEqual(FullTextSearch.words(of: "日本語 ﬁne x\u{301}y"), ["ne", "x", "y"], "other scalars separate words")
        XCTAssertEqual(FullTextSearch.words(of: ""), [])
    }

    func testEveryWordIsRequiredExcludedWordsRejectAndStarsArePrefixes() {
        let text = "Ada Lovelace wrote about Bel canto"
        XCTAssertTrue(FullTextSearch("lovelace ADA").matches(text))
        XCTAssertFalse(FullTextSearch("lovelace babbage").matches(text))
        XCTAssertTrue(FullTextSearch("Bel*").matches("Bell Biv DeVoe"))
        XCTAssertTrue(FullTextSearch("Bel* -Ada").matches("Bell Biv DeVoe"))
        XCTAssertFalse(FullTextSearch("Bel* -Ada").matches(text))
        XCTAssertFalse(FullTextSearch("lov").matches(text), "a word, not a substring")
        XCTAssertTrue(FullTextSearch("wrote-about").matches(text), "a term's words are all required")
        XCTAssertFalse(FullTextSearch("-wrote-about ada").matches(text), "an excluded term excludes each of its words")
        XCTAssertTrue(FullTextSearch("  ada\tcanto\n").matches(text))
        for empty in ["", "   ", "-", "*", "-ada", "!?"] {
            XCTAssertTrue(FullTextSearch(empty).isEmpty, empty)
            XCTAssertFalse(FullTextSearch(empty).matches(text), empty)
        }
    }
}
