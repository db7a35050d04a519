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
    }

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
