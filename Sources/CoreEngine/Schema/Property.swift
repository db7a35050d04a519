/// One property of an object schema, as the user declares it.
package struct Property: Hashable, Sendable {
    /// The public name, used by every API call.
    package var name: String
    /// The column name in the file. Equal to `name` unless the schema maps it.
    package var persistedName: String
    /// The type of the value, or of each element of a collection.
    package var type: PropertyType
    /// Whether the value (each element of a collection) may be null. Always true for `mixed`
    /// and for a to-one link.
    package var isOptional: Bool
    package var isPrimaryKey: Bool
    /// True for explicitly indexed properties and for primary keys.
    package var isIndexed: Bool
    /// A single value, or a list, set or dictionary of them.
    package var collection: CollectionKind
    /// For `object` and `linkingObjects`: the name of the linked class.
    package var objectType: String?
    /// For `linkingObjects`: the property of `objectType` whose links are counted back.
    package var linkOriginProperty: String?

    package init(name: String, persistedName: String? = nil, type: PropertyType, isOptional: Bool = false,
                isPrimaryKey: Bool = false, isIndexed: Bool = false, collection: CollectionKind = .none,
                objectType: String? = nil, linkOriginProperty: String? = nil) {
        self.name = name
        self.persistedName = (persistedName?.isEmpty ?? true) ? name : persistedName!
        self.type = type
        self.isOptional = isOptional || type == .mixed
        self.isPrimaryKey = isPrimaryKey
        self.isIndexed = isIndexed || isPrimaryKey
        self.collection = collection
        self.objectType = objectType
        self.linkOriginProperty = linkOriginProperty
    }

    /// "int", "string?", "Dog[]", "string?[]", "Person?", "Dog?{}", "mixed",
    /// "linkingObjects(Person.dogs)": the form the Python schema uses.
    package var typeDescription: String {
        switch type {
        case .linkingObjects:
            return "linkingObjects(\(objectType ?? "?").\(linkOriginProperty ?? "?"))"
        case .mixed:
            return "mixed" + collection.suffix
        default:
            let base = type == .object ? (objectType ?? "object") : type.name
            return base + (isOptional ? "?" : "") + collection.suffix
        }
    }

    /// Whether the property links to objects (a to-one link or a collection of links).
    package var isLink: Bool { type == .object }
}
