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

    /// The in-place search of ASCII bytes agrees with the search of the string's words, for
    /// random strings (ASCII, Latin-1 letters, a soft hyphen, other scalars) and searches.
    func testSearchingBytesInPlaceAgreesWithSearchingWords() {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["ab", "Ab", "abc", "b", "x1", "42", " ", " ", ",", "-", "é", "É", "ß", "\u{AD}", "日", "wi-fi", "\t"]
        let searchWords = ["ab", "AB*", "-abc", "b", "x1", "4*", "-42", "wi-fi", "e", "a*", "-b*", "é", "abé*"]
        var checked = 0, matched = 0
        for _ in 0..<3000 {
            let text = (0..<Int.random(in: 0...12, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let query = (0..<Int.random(in: 1...3, using: &generator)).map { _ in searchWords.randomElement(using: &generator)! }.joined(separator: " ")
            let search = FullTextSearch(query)
            let expected = search.matches(text)
            let got = Array(text.utf8).withUnsafeBytes { search.matches(bytes: $0) }
            XCTAssertEqual(got, expected, "\(query) in \(text.debugDescription)")
            checked += 1
            if expected { matched += 1 }
        }
        XCTAssertGreaterThan(matched, 100, "the random searches match sometimes")
        XCTAssertGreaterThan(checked - matched, 100)
        // Arbitrary bytes, malformed UTF-8 included, read as String(decoding:) reads them.
        let bytes: [UInt8] = [0x61, 0x62, 0x41, 0x20, 0x2D, 0x31, 0xC3, 0xA9, 0x89, 0xC2, 0xAD, 0xE6, 0x97, 0xA5, 0xF0, 0x9F, 0x98, 0x80, 0xC0, 0xFF, 0x80]
        for _ in 0..<3000 {
            let raw = (0..<Int.random(in: 0...16, using: &generator)).map { _ in bytes.randomElement(using: &generator)! }
            let search = FullTextSearch(["ab", "a*", "-b", "é", "ab1"].randomElement(using: &generator)!)
            let expected = search.matches(String(decoding: raw, as: UTF8.self))
            XCTAssertEqual(raw.withUnsafeBytes { search.matches(bytes: $0) }, expected, "\(raw)")
        }
    }
}
