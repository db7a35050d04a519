/// Queries on Results: narrowing by a query string, and key paths for sorting and DISTINCT.
extension Results {
    /// A property of these results' class named by a key path through to-one links
    /// (`owner.name`), for sorting and DISTINCT.
    /// - Throws: `DBError(.query)` for an unknown property, a to-many link on the way, or a
    ///   property without one scalar value.
    package func propertyPath(_ text: String) throws -> PropertyPath {
        try QueryCompiler(classInfo: classInfo, classes: realm).propertyPath(text)
    }

    /// A property with one value (scalar, mixed or link) named by a key path through to-one links,
    /// whose value `values(ofKeyPath:start:maxCount:)` reads.
    /// - Throws: `DBError(.query)` as `propertyPath(_:)`.
    package func valuePath(_ text: String) throws -> PropertyPath {
        try QueryCompiler(classInfo: classInfo, classes: realm).valuePath(text)
    }

    /// A key path through any links (`dogs.name`, `scores`, `owner.name`), whose values
    /// `valueLists(ofKeyPath:start:maxCount:)` reads object by object.
    /// - Throws: `DBError(.query)` with the byte offset of the offending part.
    package func valueListPath(_ text: String) throws -> CompiledKeyPath {
        try QueryCompiler(classInfo: classInfo, classes: realm).valueListPath(text)
    }

    /// The position of the first object of these results that matches a query string (the
    /// seeds' `index(matching:)`), or nil when none does.
    /// - Throws: `DBError(.query)` with the byte offset of the offending token, also for a SORT,
    ///   DISTINCT or LIMIT suffix (a position is asked of these results' own order).
    package func index(matching query: String, arguments: [QueryArgument] = []) throws -> Int? {
        try index(matching: try QueryParser.parse(query), arguments: arguments)
    }

    /// `index(matching:)` with a query built as a syntax tree (the Swift API's type-safe queries).
    package func index(matching query: Query, arguments: [QueryArgument] = []) throws -> Int? {
        let (predicate, suffixes) = try QueryCompiler(classInfo: classInfo, arguments: arguments, classes: realm).compile(query)
        if !suffixes.isEmpty {
            throw DBError(.query, "index(matching:) takes a condition only, without SORT, DISTINCT or LIMIT (it finds a position in these results' order)")
        }
        return try index(matching: predicate)
    }

    /// Narrows the results with a query string: its predicate is ANDed, its SORT, DISTINCT and
    /// LIMIT suffixes are appended in order.
    /// - Throws: `DBError(.query)` with the byte offset of the offending token.
    package func filter(_ query: String, arguments: [QueryArgument] = []) throws -> Results {
        narrowed(by: try QueryCompiler(classInfo: classInfo, arguments: arguments, classes: realm).compile(query))
    }

    /// `filter` with a query built as a syntax tree (the Swift API's type-safe queries) instead
    /// of parsed from text; the same checks apply. Offsets in errors are 0: there is no text.
    package func filter(_ query: Query, arguments: [QueryArgument] = []) throws -> Results {
        narrowed(by: try QueryCompiler(classInfo: classInfo, arguments: arguments, classes: realm).compile(query))
    }

    private func narrowed(by compiled: (predicate: CompiledPredicate, operations: [ResultsOperation])) -> Results {
        Results(realm: realm, classInfo: classInfo, predicate: .all([self.predicate, compiled.predicate]),
                operations: operations + compiled.operations, source: source)
    }
}
