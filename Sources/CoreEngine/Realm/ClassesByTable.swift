/// A realm's bound classes by table id, for the lookup every call naming a class by its key
/// makes (`db_object_get_values_by_key`, `db_object_set_value_by_key`, ...). Table ids are
/// allocated from 1 upwards per file, so they index an array: a `[UInt32: ClassInfo]` spent
/// about 90 instructions per lookup hashing the id (SipHash). Ids too large for an array (only
/// a file with many thousands of classes created over its life) are looked up in a dictionary.
struct ClassesByTable {
    /// Ids below this are kept in `dense`.
    static let denseLimit: UInt32 = 4096

    private var dense: [ClassInfo?] = []
    private var sparse: [UInt32: ClassInfo] = [:]

    init() {}

    init(_ classes: [ClassInfo]) {
        let largest = classes.lazy.map(\.tableID).filter { $0 < Self.denseLimit }.max()
        dense = [ClassInfo?](repeating: nil, count: largest.map { Int($0) + 1 } ?? 0)
        for info in classes {
            if info.tableID < Self.denseLimit { dense[Int(info.tableID)] = info } else { sparse[info.tableID] = info }
        }
    }

    subscript(tableID: UInt32) -> ClassInfo? {
        if tableID < Self.denseLimit {
            let index = Int(tableID)
            return index < dense.count ? dense[index] : nil
        }
        return sparse.isEmpty ? nil : sparse[tableID]
    }
}
