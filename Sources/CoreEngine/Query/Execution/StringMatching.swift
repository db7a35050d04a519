/// BEGINSWITH, ENDSWITH, CONTAINS, LIKE and equality on strings, with the `[c]`/`[d]` options.
///
/// Without options the comparisons are on UTF-8 bytes (code points), which the evaluator can do
/// directly on stored bytes. With options both sides are folded first (see `DiacriticFolding`).
enum StringMatching {
    /// Applies a string operator to two strings already folded for the options in use.
    static func matches(_ text: String, _ op: StringOperator, _ pattern: String) -> Bool {
        switch op {
        case .beginsWith: return text.utf8.starts(with: pattern.utf8)
        case .endsWith: return text.utf8.reversed().starts(with: pattern.utf8.reversed())
        case .contains: return pattern.isEmpty || contains(Array(text.utf8), Array(pattern.utf8))
        case .like: return like(Array(text.unicodeScalars), Array(pattern.unicodeScalars))
        case .fullText: return FullTextSearch(pattern).matches(text)
        }
    }

    /// The same on raw bytes (no options): `data` operands and the byte-level string fast path.
    static func matches(bytes text: UnsafeRawBufferPointer, _ op: StringOperator, _ pattern: [UInt8]) -> Bool {
        switch op {
        case .beginsWith: return text.count >= pattern.count && text.prefix(pattern.count).elementsEqual(pattern)
        case .endsWith: return text.count >= pattern.count && text.suffix(pattern.count).elementsEqual(pattern)
        case .contains: return pattern.isEmpty || contains(Array(text), pattern)
        case .like:
            return like(Array(String(decoding: text, as: UTF8.self).unicodeScalars),
                        Array(String(decoding: pattern, as: UTF8.self).unicodeScalars))
        case .fullText:
            return FullTextSearch(String(decoding: pattern, as: UTF8.self)).matches(bytes: text)
        }
    }

    private static func contains(_ text: [UInt8], _ pattern: [UInt8]) -> Bool {
        guard pattern.count <= text.count else { return false }
        let first = pattern[0]
        var i = 0
        let last = text.count - pattern.count
        while i <= last {
            if text[i] == first && text[i..<(i + pattern.count)].elementsEqual(pattern) { return true }
            i += 1
        }
        return false
    }

    /// LIKE: `*` matches any run of characters (scalars), `?` exactly one; everything else itself.
    /// Iterative with backtracking to the last `*`: O(n * m) worst case, no recursion.
    static func like(_ text: [Unicode.Scalar], _ pattern: [Unicode.Scalar]) -> Bool {
        var t = 0, p = 0
        var starP = -1, starT = 0
        while t < text.count {
            if p < pattern.count && (pattern[p] == "?" || (pattern[p] != "*" && pattern[p] == text[t])) {
                t += 1; p += 1
            } else if p < pattern.count && pattern[p] == "*" {
                starP = p; starT = t; p += 1
            } else if starP >= 0 {
                p = starP + 1; starT += 1; t = starT
            } else {
                return false
            }
        }
        while p < pattern.count && pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }
}
