/// Whether a property holds one value or a collection of values. Raw values equal the C API's
/// `db_collection_type_e`.
package enum CollectionKind: UInt8, Sendable, CaseIterable {
    /// One value.
    case none = 0
    /// Ordered, duplicates allowed.
    case list = 1
    /// Unordered, no duplicates.
    case set = 2
    /// String keys (without '.' and not starting with '$') to values.
    case dictionary = 3

    /// The suffix of a collection's type in schemas and messages: "[]", "<>", "{}".
    package var suffix: String {
        switch self {
        case .none: return ""
        case .list: return "[]"
        case .set: return "<>"
        case .dictionary: return "{}"
        }
    }
}
