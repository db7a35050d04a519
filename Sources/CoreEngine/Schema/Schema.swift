/// A list of object schemas, validated on construction.
package struct Schema: Hashable, Sendable {
    package private(set) var objectSchemas: [ObjectSchema]

    /// Validates and builds a schema.
    /// - Throws: `DBError(.schemaInvalid)` naming the class and property at fault: empty or duplicate
    ///   names (public or persisted), more than one primary key, a primary key or index on a type that
    ///   cannot have one.
    package init(_ objectSchemas: [ObjectSchema]) throws {
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
                try Self.validateRelationship(property, where_, in: objectSchema, of: objectSchemas)
                if property.isPrimaryKey {
                    primaryKeys += 1
                    guard property.collection == .none else {
                        throw DBError(.schemaInvalid, "\(where_): a \(property.typeDescription) collection cannot be a primary key")
                    }
                    guard !objectSchema.isEmbedded else {
                        throw DBError(.schemaInvalid, "\(where_): embedded class '\(cls)' cannot have a primary key (its objects are found through their parent)")
                    }
                    guard property.type.canBePrimaryKey else {
                        throw DBError(.schemaInvalid, "\(where_) of type \(property.type.name) cannot be a primary key (int, string, objectId or uuid can)")
                    }
                }
                if property.isIndexed && (!property.type.canBeIndexed || property.collection != .none) {
                    throw DBError(.schemaInvalid, "\(where_) of type \(property.typeDescription) cannot be indexed (bool, int, string, date, objectId or uuid can)")
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
                    guard property.type.canBeIndexed, property.collection == .none else {
                        throw DBError(.schemaInvalid, "\(where_): property '\(name)' of type \(property.typeDescription) cannot be indexed (bool, int, string, date, objectId or uuid can)")
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

    package func objectSchema(named name: String) -> ObjectSchema? { objectSchemas.first { $0.name == name } }

    /// The rules for links, backlinks, collections and mixed (as Realm's): a to-one link is
    /// optional; lists and sets of objects hold no nulls, dictionaries of objects may; sets of
    /// embedded objects do not exist; a backlink names a link property of its class that links back.
    private static func validateRelationship(_ property: Property, _ where_: String, in objectSchema: ObjectSchema,
                                             of all: [ObjectSchema]) throws {
        func fail(_ message: String) -> DBError { DBError(.schemaInvalid, "\(where_): \(message)") }
        switch property.type {
        case .object:
            guard let targetName = property.objectType, let target = all.first(where: { $0.name == targetName }) else {
                throw fail("links to class '\(property.objectType ?? "")', which is not in the schema")
            }
            switch property.collection {
            case .none where !property.isOptional:
                throw fail("a link to one object is always optional: declare it '\(targetName)?'")
            case .list where property.isOptional, .set where property.isOptional:
                throw fail("a \(property.collection == .list ? "list" : "set") of objects cannot hold null: declare it '\(targetName)\(property.collection.suffix)'")
            case .dictionary where !property.isOptional:
                throw fail("a dictionary of objects holds null for removed objects: declare it '\(targetName)?{}'")
            case .set where target.isEmbedded:
                throw fail("a set cannot hold embedded objects ('\(targetName)' is embedded); use a list")
            default: break
            }
        case .linkingObjects:
            guard property.collection == .none else { throw fail("linkingObjects is already a collection") }
            guard let originName = property.objectType, let origin = all.first(where: { $0.name == originName }) else {
                throw fail("counts links from class '\(property.objectType ?? "")', which is not in the schema")
            }
            guard let originProperty = property.linkOriginProperty.flatMap({ origin.property(named: $0) }) else {
                throw fail("class '\(originName)' has no property '\(property.linkOriginProperty ?? "")' to count links from")
            }
            guard originProperty.type == .object, originProperty.objectType == objectSchema.name else {
                throw fail("'\(originName).\(originProperty.name)' (\(originProperty.typeDescription)) does not link to '\(objectSchema.name)'")
            }
        default:
            guard property.objectType == nil else {
                throw fail("only object and linkingObjects properties name a class (objectType '\(property.objectType!)')")
            }
        }
    }

    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 63 && !name.contains(".") && !name.contains("\0")
    }
}
