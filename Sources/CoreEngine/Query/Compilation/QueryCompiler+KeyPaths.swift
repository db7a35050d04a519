/// The classes of a realm by name and by table id: what a query compiler needs to follow links.
package protocol ClassLookup: AnyObject {
    func classInfo(named name: String) throws -> ClassInfo
    func classInfo(tableID: UInt32) throws -> ClassInfo
    /// The key of the object of a class with a primary key (for `obj('Class', key)`).
    func objectKey(_ classInfo: ClassInfo, primaryKey: Value) throws -> Int64?
}

extension Realm: ClassLookup {}

extension ClassLookup {
    /// The class named `name`, or nil when the schema has none. Any other failure (a closed
    /// realm, a call from the wrong thread) is thrown as itself, not reported as a bad query.
    func existingClass(named name: String) throws -> ClassInfo? {
        try orNilWhenNotFound { try classInfo(named: name) }
    }

    /// The class with table id `tableID`, or nil when the schema has none (as `existingClass(named:)`).
    func existingClass(tableID: UInt32) throws -> ClassInfo? {
        try orNilWhenNotFound { try classInfo(tableID: tableID) }
    }

    private func orNilWhenNotFound(_ find: () throws -> ClassInfo) throws -> ClassInfo? {
        do { return try find() } catch let error as DBError where error.code == .notFound { return nil }
    }
}

/// A key path resolved against the schema: a property of the queried object itself (which keeps
/// the evaluator's in-place fast paths), or a path through links and collections.
enum ResolvedKeyPath {
    case property(PropertyInfo)
    case path(CompiledKeyPath)
}

/// Key path resolution: `owner.name`, `dogs.age`, `dogs.@avg.age`, `@links.Person.dogs.@count`,
/// `meta['color']`, `meta.@keys`, `scores[FIRST]`, `mixed.@type`, `$d.age` in a SUBQUERY.
extension QueryCompiler {
    private static let aggregates: [String: Results.Aggregate] = ["min": .min, "max": .max, "sum": .sum, "avg": .average]

    func resolve(_ path: QueryKeyPath) throws -> ResolvedKeyPath {
        if let variable {
            guard path.variable == variable else {
                throw error("inside SUBQUERY, key paths start with the variable $\(variable) (as in $\(variable).\(path.description))", path.range)
            }
        } else if let name = path.variable {
            throw error("$\(name) is not a SUBQUERY variable here", path.range)
        }
        let components = try path.components.map(resolvingArgumentSubscript)
        guard !components.isEmpty else {
            throw error("$\(path.variable ?? "") alone is not a value here; name a property of it", path.range)
        }
        var hops: [LinkHop] = []
        var current = classInfo
        var i = 0
        /// The component after `i`, if any.
        func next(_ offset: Int = 1) -> QueryKeyPath.Component? { i + offset < components.count ? components[i + offset] : nil }
        func finish(_ leaf: KeyPathLeaf, consumed: Int) throws -> ResolvedKeyPath {
            if i + consumed < components.count {
                let extra = components[i + consumed]
                throw error("nothing can follow \(components[i + consumed - 1].display) in a key path (found \(extra.display))", extra.range)
            }
            if hops.isEmpty, case let .property(property) = leaf, property.isScalar { return .property(property) }
            return .path(CompiledKeyPath(hops: hops, leaf: leaf))
        }

        while i < components.count {
            let component = components[i]
            if component.isAtComponent {
                guard component.name == "links" else {
                    throw error("\(component.display) must follow a collection (a list, set, dictionary or linking objects property)", component.range)
                }
                if let count = next(), count.isAtComponent, count.name == "count" || count.name == "size" {
                    return try finish(.count(.allBacklinks), consumed: 2)
                }
                guard let className = next(), let propertyName = next(2), !className.isAtComponent, !propertyName.isAtComponent else {
                    throw error("@links is followed by a class and a link property (@links.Person.dogs) or by @count", component.range)
                }
                guard let lookup = classes else { throw error("@links needs the realm's schema", component.range) }
                guard let origin = try lookup.existingClass(named: className.name) else {
                    throw error("there is no class named '\(className.name)'", className.range)
                }
                guard let link = origin.property(named: propertyName.name), link.type == .object, link.linkTarget == current.tableID else {
                    throw error("'\(origin.name).\(propertyName.name)' is not a property that links to '\(current.name)'", propertyName.range)
                }
                let hop = LinkHop(kind: .backlinks, column: link.column, target: origin, name: "@links.\(origin.name).\(link.name)")
                i += 2
                if let resolved = try toManyHopEnd(hop, countable: .hop(hop), i, components, finish) { return resolved }
                hops.append(hop)
                current = origin
                i += 1
                continue
            }

            guard let property = current.property(named: component.name) else {
                // After a dictionary of objects, a name the objects lack is a key (`pets.rex.age`,
                // as `pets['rex'].age`); a property of theirs comes first, as in realm-core.
                if let last = hops.last, case .dictionary = last.kind, component.selector == nil {
                    hops[hops.count - 1].kind = .dictionaryEntry(component.name)
                    i += 1
                    if i == components.count { return try finish(.objects(hops.removeLast()), consumed: 0) }
                    continue
                }
                throw error("'\(current.name)' has no property named '\(component.name)'", component.range)
            }
            // Only errors read it: built when one is thrown, not for every key path compiled.
            var described: String { "'\(current.name).\(property.name)' (\(property.property.typeDescription))" }

            // Links, collections of objects and linking objects: hops to another class.
            if let hop = try linkHop(property, of: current, selector: component.selector, component.range) {
                if hop.isToMany {
                    let countable: CountedCollection = hop.kind.isBacklinks ? .hop(hop) : .collection(property)
                    if let resolved = try toManyHopEnd(hop, countable: countable, i, components, finish) { return resolved }
                } else if next() == nil {
                    // A to-one link, or one list element, as a value (`owner == $0`, `dogs[FIRST] == nil`).
                    if case .link = hop.kind { return try finish(.property(property), consumed: 1) }
                    if case let .list(position) = hop.kind { return try finish(.elements(property, position), consumed: 1) }
                    return try finish(.objects(hop), consumed: 1)
                }
                if let at = next(), at.isAtComponent {
                    switch at.name {
                    case "count", "size":
                        // `owner.@count`: 0 or 1, the objects the link reaches (as realm-core).
                        return try finish(.count(.hop(hop)), consumed: 2)
                    case "type":
                        return try finish(.typeName(.property(property)), consumed: 2)
                    case "links":
                        break  // `owner.@links.Person.dogs`: the backlinks of the linked object
                    default:
                        throw error("\(at.display) applies to collections; \(described) links to one object", at.range)
                    }
                }
                hops.append(hop)
                current = hop.target
                i += 1
                continue
            }

            // Collections of values.
            if property.collection != .none {
                let position = try listPosition(component.selector, property, component.range)
                if case let .key(key)? = component.selector {
                    return try finish(try typed(.entry(property, key), next()), consumed: next()?.name == "type" ? 2 : 1)
                }
                guard let at = next() else { return try finish(.elements(property, position), consumed: 1) }
                guard at.isAtComponent else {
                    // `meta.color`: a dictionary's value for the key `color` (as `meta['color']`).
                    if property.collection == .dictionary, component.selector == nil, at.selector == nil {
                        i += 1
                        return try finish(try typed(.entry(property, at.name), next()), consumed: next()?.name == "type" ? 2 : 1)
                    }
                    // `strings.length`: the length of each element (realm-core's suffix, any case).
                    if at.name.lowercased() == "length", property.collection != .dictionary, position == nil, at.selector == nil,
                       [.string, .data, .mixed].contains(property.type) {
                        return try finish(.elementLengths(property), consumed: 2)
                    }
                    throw error("\(described) holds values, not objects: it has no property '\(at.name)'", at.range)
                }
                if position != nil && at.name != "type" {
                    throw error("\(at.display) applies to the whole collection, not to one element", at.range)
                }
                switch at.name {
                case "count", "size":
                    return try finish(.count(.collection(property)), consumed: 2)
                case "keys", "values":
                    guard property.collection == .dictionary else {
                        throw error("\(at.display) applies to dictionaries; \(described) is not one", at.range)
                    }
                    let leaf: KeyPathLeaf = at.name == "keys" ? .keys(property) : .elements(property, nil)
                    i += 1
                    return try finish(try typed(leaf, next()), consumed: next()?.name == "type" ? 2 : 1)
                case "type":
                    return try finish(.typeName(.elements(property, position)), consumed: 2)
                default:
                    let aggregate = Self.aggregates[at.name]!
                    try checkAggregatable(aggregate, property.type, described, at.range)
                    return try finish(.aggregate(aggregate, .collection(property)), consumed: 2)
                }
            }

            // One value: a scalar or a mixed.
            if let at = next(), at.isAtComponent, at.name == "type" {
                return try finish(.typeName(.property(property)), consumed: 2)
            }
            if let at = next(), at.isAtComponent, at.name == "size" || at.name == "count" {
                guard property.type == .string || property.type == .data || property.type == .mixed else {
                    throw error("\(at.display) applies to strings, binary data and collections; \(described) is neither", at.range)
                }
                return try finish(.length(.property(property)), consumed: 2)
            }
            if let after = next() {
                throw error("\(described) is not a link: it has no \(after.isAtComponent ? after.display : "property '\(after.name)'")", after.range)
            }
            if component.selector != nil {
                throw error("\(described) is not a list or dictionary: it cannot be subscripted", component.range)
            }
            return try finish(.property(property), consumed: 1)
        }
        throw error("incomplete key path", path.range)
    }

    /// After a to-many hop: `@count`/`@size`, `@min.x`/`@max.x`/`@sum.x`/`@avg.x`, or the end of
    /// the path (the objects themselves). Nil when the path goes on through the hop.
    private func toManyHopEnd(_ hop: LinkHop, countable: CountedCollection, _ i: Int,
                              _ components: [QueryKeyPath.Component],
                              _ finish: (KeyPathLeaf, Int) throws -> ResolvedKeyPath) throws -> ResolvedKeyPath? {
        let next = i + 1 < components.count ? components[i + 1] : nil
        guard let at = next else {
            if case .backlinks = hop.kind { return try finish(.objects(hop), 1) }
            guard case let .collection(property) = countable else { return try finish(.objects(hop), 1) }
            return try finish(.elements(property, nil), 1)
        }
        guard at.isAtComponent else { return nil }
        switch at.name {
        case "count", "size":
            return try finish(.count(countable), 2)
        case "type":
            // The type of each object reached (`objectlink`), as for a mixed holding links.
            return try finish(.typeName(.objects(hop)), 2)
        case "min", "max", "sum", "avg":
            let aggregate = Self.aggregates[at.name]!
            guard i + 2 < components.count, !components[i + 2].isAtComponent,
                  let property = hop.target.property(named: components[i + 2].name) else {
                throw error("\(at.display) after \(hop.name) names a property of '\(hop.target.name)' (as in \(hop.name).\(at.display).age)", at.range)
            }
            guard property.isScalar else {
                throw error("\(at.display) needs a property with one value; '\(hop.target.name).\(property.name)' is \(property.property.typeDescription)", components[i + 2].range)
            }
            try checkAggregatable(aggregate, property.type, "'\(hop.target.name).\(property.name)'", components[i + 2].range)
            return try finish(.aggregate(aggregate, .hop(hop, property)), 3)
        default:
            throw error("\(at.display) cannot follow \(hop.name), which holds objects (use @count, @size, @min, @max, @sum or @avg)", at.range)
        }
    }

    /// A component with its `[$n]` subscript replaced by the argument: a string is a dictionary
    /// key, an integer a list position.
    private func resolvingArgumentSubscript(_ component: QueryKeyPath.Component) throws -> QueryKeyPath.Component {
        guard case let .argument(index)? = component.selector else { return component }
        var resolved = component
        switch try argumentList(index, component.range) {
        case let values where values.count == 1:
            switch values[0] {
            case let .string(key): resolved.selector = .key(key)
            case let .int(position) where position >= 0: resolved.selector = .index(position)
            default:
                throw error("the subscript [$\(index)] needs a string (a dictionary key) or a non-negative integer (a list position), not \(values[0])", component.range)
            }
        default:
            throw error("the subscript [$\(index)] needs one value, not a list", component.range)
        }
        return resolved
    }

    /// The hop a property makes to another class, or nil for a property of values.
    func linkHop(_ property: PropertyInfo, of owner: ClassInfo, selector: QuerySubscript?, _ range: Range<Int>) throws -> LinkHop? {
        guard property.type == .object || property.type == .linkingObjects else { return nil }
        guard let lookup = classes else {
            throw error("key paths through links need the realm's schema", range)
        }
        if property.type == .linkingObjects {
            guard case let .backlinks(originTable, originColumn) = property.column.kind,
                  let origin = try lookup.existingClass(tableID: originTable),
                  let link = origin.property(columnID: originColumn) else {
                throw error("the linking objects property '\(owner.name).\(property.name)' has no link property to follow", range)
            }
            if selector != nil { throw error("linking objects cannot be subscripted", range) }
            return LinkHop(kind: .backlinks, column: link.column, target: origin, name: property.name)
        }
        guard let targetTable = property.linkTarget, let target = try lookup.existingClass(tableID: targetTable) else {
            throw error("the class '\(owner.name).\(property.name)' links to is not in the schema", range)
        }
        let kind: LinkHop.Kind
        switch property.collection {
        case .none:
            if selector != nil { throw error("'\(owner.name).\(property.name)' links to one object: it cannot be subscripted", range) }
            kind = .link
        case .list: kind = .list(try listPosition(selector, property, range))
        case .set:
            if selector != nil && selector != .all { throw error("sets have no order: '\(owner.name).\(property.name)' cannot be subscripted", range) }
            kind = .set
        case .dictionary:
            if case let .key(key)? = selector { kind = .dictionaryEntry(key) } else {
                if selector != nil && selector != .all {
                    throw error("a dictionary is subscripted by a key, as in \(property.name)['key'], or by [*]", range)
                }
                kind = .dictionary
            }
        }
        return LinkHop(kind: kind, column: property.column, target: target, name: property.name)
    }

    /// `[FIRST]`, `[LAST]`, `[n]` on a list (nil without a subscript or with a dictionary key).
    private func listPosition(_ selector: QuerySubscript?, _ property: PropertyInfo, _ range: Range<Int>) throws -> ListPosition? {
        switch selector {
        case nil, .all?:
            return nil
        case .argument?:
            throw error("internal: [$n] is resolved before positions", range)
        case .key?:
            if case .key? = selector, property.collection != .dictionary {
                throw error("only dictionaries are subscripted by a key; '\(property.name)' is a \(property.collection == .list ? "list" : "set")", range)
            }
            return nil
        case .first?, .last?, .index?:
            guard property.collection == .list else {
                throw error("[FIRST], [LAST] and [n] apply to lists; '\(property.name)' is \(property.property.typeDescription)", range)
            }
            if case .first? = selector { return .first }
            if case .last? = selector { return .last }
            if case let .index(n)? = selector { return .index(Int(clamping: n)) }
            return nil
        }
    }

    /// A value leaf, or its `@type` when `@type` follows.
    private func typed(_ leaf: KeyPathLeaf, _ next: QueryKeyPath.Component?) throws -> KeyPathLeaf {
        guard let next else { return leaf }
        guard next.isAtComponent, next.name == "type" else {
            throw error("only @type can follow here, not \(next.display)", next.range)
        }
        return .typeName(leaf)
    }

    private func checkAggregatable(_ aggregate: Results.Aggregate, _ type: PropertyType, _ described: String, _ range: Range<Int>) throws {
        let numeric: Set<PropertyType> = [.int, .float, .double, .decimal128, .mixed]
        let ok = aggregate == .min || aggregate == .max ? numeric.contains(type) || type == .timestamp : numeric.contains(type)
        guard ok else {
            let name = aggregate == .average ? "@avg" : "@\(aggregate)"
            throw error("\(name) needs numbers\(aggregate == .min || aggregate == .max ? " or dates" : ""); \(described) holds \(type.name) values", range)
        }
    }

    // MARK: SUBQUERY

    /// `SUBQUERY(collection, $x, predicate).@count`: an int per object.
    func subquery(_ subquery: QuerySubquery, _ range: Range<Int>) throws -> CompiledKeyPath {
        let collection: CompiledKeyPath
        switch try resolve(subquery.collection) {
        case let .path(path): collection = path
        case .property:
            throw error("SUBQUERY needs a collection of objects, not '\(subquery.collection)'", subquery.collection.range)
        }
        let hop: LinkHop
        switch collection.leaf {
        case let .objects(objectsHop) where objectsHop.isToMany: hop = objectsHop
        case let .elements(property, nil) where property.type == .object:
            guard let made = try linkHop(property, of: collection.hops.last?.target ?? classInfo, selector: nil, subquery.collection.range) else {
                throw error("SUBQUERY needs a collection of objects", subquery.collection.range)
            }
            hop = made
        default:
            throw error("SUBQUERY needs a collection of objects (a list, set or dictionary of objects, or linking objects), not '\(subquery.collection)'", subquery.collection.range)
        }
        let inner = QueryCompiler(classInfo: hop.target, arguments: arguments, classes: classes, variable: subquery.variable)
        let predicate = try inner.lowerPredicate(subquery.predicate)
        return CompiledKeyPath(hops: collection.hops, leaf: .subquery(hop, SubqueryCondition(target: hop.target, predicate: predicate)))
    }

    // MARK: @type

    /// The type names `@type` compares with (any letter case, realm-core's names and aliases),
    /// and the value types each stands for. A link is an `objectlink`; `object` and `dictionary`
    /// name a dictionary nested in a mixed value and `array` and `list` a nested list, which
    /// realmdb's mixed values do not hold, so they match nothing.
    static let typeNames: [String: [String]] = {
        let aliases: [String: [String]] = [
            "null": ["null"],
            "int": ["int", "integer", "int16", "int32", "int64", "short", "long", "byte", "char"],
            "bool": ["bool", "boolean"],
            "string": ["string"],
            "binary": ["binary", "data", "bytearray", "byte[]", "bindata"],
            "timestamp": ["timestamp", "date", "datetimeoffset"],
            "float": ["float"],
            "double": ["double"],
            "decimal128": ["decimal128", "decimal"],
            "objectlink": ["objectlink", "link"],
            "objectid": ["objectid"],
            "uuid": ["uuid", "guid"],
            "dictionary": ["object", "dictionary"],
            "list": ["array", "list"],
        ]
        var names: [String: [String]] = [:]
        for (canonical, spellings) in aliases { for spelling in spellings { names[spelling] = [canonical] } }
        names["numeric"] = ["int", "float", "double", "decimal128"]
        names["collection"] = ["list", "dictionary"]
        return names
    }()

    /// The canonical type names a string compared with `@type` stands for.
    func typeNames(_ value: Value, _ range: Range<Int>) throws -> [Value] {
        guard case let .string(text) = value, let names = Self.typeNames[text.lowercased()] else {
            let known = Self.typeNames.keys.sorted().joined(separator: ", ")
            throw error("@type is compared with a type name (one of \(known)), not \(value)", range)
        }
        return names.map(Value.string)
    }
}

extension LinkHop.Kind {
    var isBacklinks: Bool { if case .backlinks = self { return true } else { return false } }
}

extension QueryKeyPath.Component {
    /// As written, for messages.
    var display: String { "'\(isAtComponent ? "@" : "")\(name)'" }
}
