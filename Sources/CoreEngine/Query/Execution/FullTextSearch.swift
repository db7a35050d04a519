/// `TEXT`: full-text search of a string, with realm-core's words and search terms.
///
/// **Words.** A string's words are its runs of ASCII letters and digits and of the letters of
/// Unicode's Latin-1 Supplement (U+00C0...U+00FF), lowercased, with accents removed where
/// realm-core removes them (é is e, ñ is n; å, æ, ø, ð and þ stay; ß and ÿ are dropped). Every
/// other character separates words, × and ÷ too (realm-core joins the words around them); a soft
/// hyphen (U+00AD) is ignored.
///
/// **Terms.** The search text is split at whitespace into terms. A term is the words it holds, all
/// required (`wi-fi` needs `wi` and `fi`). `-word` excludes the strings holding that word, and
/// `word*` matches any word that starts with `word`. A string matches when it holds every required
/// word and none of the excluded ones; a null string matches nothing.
///
/// realm-core answers TEXT from a full-text index, which also drops Danish stop words (`og`,
/// `i`, ...), so a search for one of them finds nothing there; here a string is searched as it is,
/// with or without an index, and every word counts.
struct FullTextSearch {
    private struct Term {
        var word: String
        var isPrefix: Bool
        var isExcluded: Bool
    }

    private var terms: [Term] = []
    /// The terms' words as UTF-8 bytes (already folded), for `matches(bytes:)`.
    private var asciiTerms: [(bytes: [UInt8], isPrefix: Bool)] = []

    /// Whether the search has no word to look for (`''`, `'-'`, `'*'`): the compiler refuses it.
    var isEmpty: Bool { !terms.contains { !$0.isExcluded } }

    init(_ search: String) {
        for chunk in search.split(whereSeparator: { $0.isWhitespace }) {
            var text = Substring(chunk)
            let isExcluded = text.first == "-"
            if isExcluded { text = text.dropFirst() }
            let isPrefix = text.last == "*"
            if isPrefix { text = text.dropLast() }
            let words = Self.words(of: String(text))
            for (i, word) in words.enumerated() {
                // In `-wi-fi`, the whole term is excluded; in `lin*`, only the last word is a prefix.
                terms.append(Term(word: word, isPrefix: isPrefix && i == words.count - 1, isExcluded: isExcluded))
            }
        }
        asciiTerms = terms.map { (Array($0.word.utf8), $0.isPrefix) }
    }

    /// Whether a string, given as its UTF-8 bytes, matches: the same answer as `matches(_:)`,
    /// read in place, folding each word into one reused buffer instead of building its words.
    func matches(bytes text: UnsafeRawBufferPointer) -> Bool {
        guard terms.count <= 64 else { return matches(String(decoding: text, as: UTF8.self)) }
        var found: UInt64 = 0
        var word: [UInt8] = []
        word.reserveCapacity(32)
        func endWord() {
            guard !word.isEmpty else { return }
            for (t, term) in asciiTerms.enumerated() where found & (1 << UInt64(t)) == 0 {
                if term.isPrefix ? word.starts(with: term.bytes) : word == term.bytes { found |= 1 << UInt64(t) }
            }
            word.removeAll(keepingCapacity: true)
        }
        let n = text.count
        var i = 0
        while i < n {
            let byte = text[i]
            if byte < 0x80 {
                if Self.isWordByte(byte) { word.append(Self.lowercased(byte)) } else { endWord() }
                i += 1
                continue
            }
            let next: UInt8 = i + 1 < n ? text[i + 1] : 0
            if next & 0xC0 == 0x80 {
                if byte == 0xC2 && next == 0xAD { i += 2; continue }  // soft hyphen: as if absent
                if byte == 0xC3 {  // U+00C0...U+00FF
                    let scalar = 0xC0 | UInt32(next & 0x3F)
                    if scalar != 0xD7 && scalar != 0xF7 {
                        if let folded = Self.latin1Letters[Int(scalar & 0x1F)] { word.append(contentsOf: String(folded).utf8) }
                        i += 2
                        continue
                    }
                }
            }
            // Any other scalar (or a malformed byte) separates words: skip it and its continuation bytes.
            endWord()
            let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
            i += 1
            for _ in 1..<length where i < n && text[i] & 0xC0 == 0x80 { i += 1 }
        }
        endWord()
        for (t, term) in terms.enumerated() where (found & (1 << UInt64(t)) != 0) == term.isExcluded {
            return false
        }
        return !isEmpty
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte }

    func matches(_ text: String) -> Bool {
        let words = Set(Self.words(of: text))
        for term in terms {
            let found = term.isPrefix ? words.contains { $0.hasPrefix(term.word) } : words.contains(term.word)
            if found == term.isExcluded { return false }
        }
        return !isEmpty
    }

    /// The words of `text`, in order, folded as described above.
    static func words(of text: String) -> [String] {
        var words: [String] = []
        var current = String.UnicodeScalarView()
        func end() {
            if !current.isEmpty { words.append(String(current)) }
            current = String.UnicodeScalarView()
        }
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x30...0x39, 0x61...0x7A:
                current.append(scalar)
            case 0x41...0x5A:
                current.append(Unicode.Scalar(scalar.value + 0x20)!)
            case 0xAD:
                continue  // soft hyphen: inside a word, as if absent
            case 0xC0...0xFF where scalar.value != 0xD7 && scalar.value != 0xF7:
                if let folded = latin1Letters[Int(scalar.value & 0x1F)] { current.append(folded) }
            default:
                end()
            }
        }
        end()
        return words
    }

    /// The Latin-1 Supplement letters by their low five bits (upper and lower case alike): the
    /// letter without its accent, or the letter itself (å, æ, ð, ø, þ); nil for ß, which realm-core
    /// keeps in the word but drops.
    private static let latin1Letters: [Unicode.Scalar?] = [
        "a", "a", "a", "a", "a", "\u{E5}", "\u{E6}", "c", "e", "e", "e", "e", "i", "i", "i", "i",
        "\u{F0}", "n", "o", "o", "o", "o", "o", nil, "\u{F8}", "u", "u", "u", "u", "y", "\u{FE}", nil,
    ]
}
