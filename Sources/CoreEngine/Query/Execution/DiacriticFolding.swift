/// Folding for the `[c]` and `[d]` string modifiers.
///
/// `[c]` compares lowercased strings (the standard library's full Unicode lowercasing: "ÉCOLE"
/// matches "école"; "STRASSE" does not match "straße", which would need full case folding).
/// `[d]` removes nonspacing marks: precomposed letters map to their base letter through a table
/// generated from Unicode data (tools/generate_unicode_tables.py) and combining marks are dropped.
enum DiacriticFolding {
    /// Folds a string for the given options; returns it unchanged when there are none.
    static func fold(_ string: String, _ options: StringOptions) -> String {
        var result = string
        if options.contains(.diacriticInsensitive) { result = removeDiacritics(result) }
        if options.contains(.caseInsensitive) { result = result.lowercased() }
        return result
    }

    static func removeDiacritics(_ string: String) -> String {
        // Fast path: ASCII has no diacritics.
        if string.utf8.allSatisfy({ $0 < 0x80 }) { return string }
        var scalars = String.UnicodeScalarView()
        for scalar in string.unicodeScalars {
            if scalar.properties.generalCategory == .nonspacingMark { continue }
            if let base = base(of: scalar.value) {
                scalars.append(contentsOf: base.compactMap(Unicode.Scalar.init))
            } else {
                scalars.append(scalar)
            }
        }
        return String(scalars)
    }

    private static func base(of scalar: UInt32) -> [UInt32]? {
        if let multiple = multipleTable[scalar] { return multiple }
        // Binary search over (scalar, base) pairs.
        var low = 0, high = singleTable.count / 2 - 1
        while low <= high {
            let middle = (low + high) / 2
            let key = singleTable[middle * 2]
            if key == scalar { return [singleTable[middle * 2 + 1]] }
            if key < scalar { low = middle + 1 } else { high = middle - 1 }
        }
        return nil
    }
}
