/// How a query finds its objects: the one value the planner (`QueryPlan.init`) makes and the
/// executor (`QueryExecutor`) runs. A plan is a first step that produces keys, then the
/// operations it did not absorb (sorts, DISTINCT, LIMIT), applied in order.
///
/// How the matches are reached is the plan's `AccessPath`, chosen per run by `IndexPlanner`
/// (it depends on what the indexes hold at that snapshot): an index that answers the predicate
/// exactly, an index that narrows it to candidates, or a scan of the class's clusters.
/// `PredicateEvaluator` then checks what the path did not already decide.
struct QueryPlan {
    /// How the objects that match are reached in one snapshot.
    enum AccessPath: Equatable {
        /// An index answered every condition: exactly these keys match (in index order), and no
        /// object is read.
        case indexExact([Int64])
        /// An index narrowed the predicate to these keys (in index order): only their clusters
        /// are read, and each candidate is checked against the whole predicate.
        case indexCandidates([Int64])
        /// No index helps: every cluster of the class is read and checked.
        case clusterScan
    }

    enum FirstStep {
        /// The objects a relationship holds (a list, set, dictionary or backlinks), filtered by
        /// the predicate, in the relationship's order.
        case relationshipKeys((StorageTransaction) throws -> [Int64])
        /// The first `limit` matches in the order of an index that serves the leading sort
        /// (`IndexedSort`); a sorted scan with the same limit when no index can.
        case indexOrderedTopK([SortDescriptor], limit: Int)
        /// A scan that reads the sort values in place as it matches, keeping only the best
        /// `limit` rows as it goes when there is a limit (top-k), else sorting all matches.
        case sortedScan([SortDescriptor], limit: Int?)
        /// The matching keys in key order (index lookups or cluster scans).
        case matchingKeys
    }

    let classInfo: ClassInfo
    let predicate: CompiledPredicate
    let firstStep: FirstStep
    /// The operations applied to the first step's keys, in order.
    let remaining: [ResultsOperation]

    /// Plans a query: `operations` apply in order to the objects of `source` that match `predicate`.
    /// - Throws: `.wrongType` when a sort or DISTINCT names a property without one scalar value.
    init(classInfo: ClassInfo, predicate: CompiledPredicate, operations: [ResultsOperation], source: ResultsSource) throws {
        for operation in operations {
            let paths: [PropertyPath]
            switch operation {
            case let .sort(descriptors): paths = descriptors.map(\.path)
            case let .distinct(distinct): paths = distinct
            case .limit: paths = []
            }
            if let other = paths.first(where: { !$0.property.isScalar }) {
                throw DBError(.wrongType, "cannot sort or make distinct by '\(classInfo.name).\(other.name)' (\(other.property.property.typeDescription)): only properties with one scalar value can be used")
            }
        }
        self.classInfo = classInfo
        self.predicate = predicate
        var remaining = operations[...]
        if case let .keys(provider) = source {
            firstStep = .relationshipKeys(provider)
        } else if case let .sort(descriptors)? = remaining.first, descriptors.allSatisfy({ $0.path.links.isEmpty }) {
            // A leading sort reads its values in place during the scan; with a LIMIT right after
            // it, an index in sort order may serve it, else only the best `limit` rows are kept.
            remaining = remaining.dropFirst()
            if case let .limit(count)? = remaining.first {
                remaining = remaining.dropFirst()
                firstStep = .indexOrderedTopK(descriptors, limit: count)
            } else {
                firstStep = .sortedScan(descriptors, limit: nil)
            }
        } else {
            firstStep = .matchingKeys
        }
        self.remaining = Array(remaining)
    }
}
