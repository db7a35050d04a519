/// One property of an object schema, as the user declares it.
public struct Property: Hashable, Sendable {
    /// The public name, used by every API call.
    public var name: String
    /// The column name in the file. Equal to `name` unless the schema maps it.
    public var persistedName: String
    public var type: PropertyType
    public var isOptional: Bool
    public var isPrimaryKey: Bool
    /// True for explicitly indexed properties and for primary keys.
    public var isIndexed: Bool

    public init(name: String, persistedName: String? = nil, type: PropertyType, isOptional: Bool = false,
                isPrimaryKey: Bool = false, isIndexed: Bool = false) {
        self.name = name
        self.persistedName = (persistedName?.isEmpty ?? true) ? name : persistedName!
        self.type = type
        self.isOptional = isOptional
        self.isPrimaryKey = isPrimaryKey
        self.isIndexed = isIndexed || isPrimaryKey
    }

    /// "int", "string?" and so on.
    public var typeDescription: String { type.name + (isOptional ? "?" : "") }
}

/// The declared shape of one class: its name and properties.
public struct ObjectSchema: Hashable, Sendable {
    public var name: String
    public var properties: [Property]
    /// Compound indexes: each lists two or more indexable properties (public names) in key order.
    /// One serves equality on a leading run of its properties plus a range on the next, and sorts
    /// by exactly its properties (see `IndexPlanner` and `IndexedSort`).
    public var compoundIndexes: [[String]]

    public init(name: String, properties: [Property], compoundIndexes: [[String]] = []) {
        self.name = name
        self.properties = properties
        self.compoundIndexes = compoundIndexes
    }

    public var primaryKey: Property? { properties.first(where: \.isPrimaryKey) }

    public func property(named name: String) -> Property? { properties.first { $0.name == name } }
}

/// A list of object schemas, validated on construction.
public struct Schema: Hashable, Sendable {
    public private(set) var objectSchemas: [ObjectSchema]

    /// Validates and builds a schema.
    /// - Throws: `DBError(.schemaInvalid)` naming the class and property at fault: empty or duplicate
    ///   names (public or persisted), more than one primary key, a primary key or index on a type that
    ///   cannot have one.
    public init(_ objectSchemas: [ObjectSchema]) throws {
        var classNames = Set<String>()
        for objectSchema in objectSchemas {
            let cls = objectSchema.name
            guard Self.isValidName(cls) else {
                throw DBError(.schemaInvalid, "class name '\(cls)' is invalid: names must be non-empty, at most 63 bytes, without '.' or NUL")
            }
            guard classNames.insert(cls).inserted else {
                throw DBError(.schemaInvalid, "class '\(cls)' is declared twice")
            }
            var publicNames = Set<String>(), persistedNames = Set<String>()
            var primaryKeys = 0
            for property in objectSchema.properties {
                let where_ = "property '\(cls).\(property.name)'"
                guard Self.isValidName(property.name), Self.isValidName(property.persistedName) else {
                    throw DBError(.schemaInvalid, "\(where_): names must be non-empty, at most 63 bytes, without '.' or NUL")
                }
                guard publicNames.insert(property.name).inserted else {
                    throw DBError(.schemaInvalid, "\(where_) is declared twice")
                }
                guard persistedNames.insert(property.persistedName).inserted else {
                    throw DBError(.schemaInvalid, "\(where_): persisted name '\(property.persistedName)' is used twice in class '\(cls)'")
                }
                if property.isPrimaryKey {
                    primaryKeys += 1
                    guard property.type.canBePrimaryKey else {
                        throw DBError(.schemaInvalid, "\(where_) of type \(property.type.name) cannot be a primary key (int, string, objectId or uuid can)")
                    }
                }
                if property.isIndexed && !property.type.canBeIndexed {
                    throw DBError(.schemaInvalid, "\(where_) of type \(property.type.name) cannot be indexed (bool, int, string, date, objectId or uuid can)")
                }
            }
            var declaredIndexes = Set<[String]>()
            for index in objectSchema.compoundIndexes {
                let where_ = "compound index (\(index.joined(separator: ", "))) of class '\(cls)'"
                guard index.count >= 2 else {
                    throw DBError(.schemaInvalid, "\(where_) needs at least two properties; index a single property with the indexed flag")
                }
                guard Set(index).count == index.count else {
                    throw DBError(.schemaInvalid, "\(where_) lists a property twice")
                }
                guard index.count <= 8 else {
                    throw DBError(.schemaInvalid, "\(where_) has \(index.count) properties; at most 8 are allowed")
                }
                for name in index {
                    guard let property = objectSchema.property(named: name) else {
                        throw DBError(.schemaInvalid, "\(where_) names '\(name)', which is not a property of the class")
                    }
                    guard property.type.canBeIndexed else {
                        throw DBError(.schemaInvalid, "\(where_): property '\(name)' of type \(property.type.name) cannot be indexed (bool, int, string, date, objectId or uuid can)")
                    }
                }
                guard declaredIndexes.insert(index).inserted else {
                    throw DBError(.schemaInvalid, "\(where_) is declared twice")
                }
            }
            guard primaryKeys <= 1 else {
                throw DBError(.schemaInvalid, "class '\(cls)' declares \(primaryKeys) primary keys; at most one is allowed")
            }
        }
        self.objectSchemas = objectSchemas
    }

    public func objectSchema(named name: String) -> ObjectSchema? { objectSchemas.first { $0.name == name } }

    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 63 && !name.contains(".") && !name.contains("\0")
    }
}
