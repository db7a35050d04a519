import CoreEngine
import Foundation

/// Turns a query written with NSPredicate's substitutions (`%@` for the next argument, `%K` for
/// a property name) into the Realm Query Language's `$n` form, and Swift arguments into the
/// engine's values. Text inside quotes is left alone.
enum QueryFormat {
    static func rewrite(_ format: String, _ args: [Any]) throws(RealmError) -> (String, [QueryArgument]) {
        var query = ""
        var arguments: [QueryArgument] = []
        var next = args.startIndex
        var quote: Character?
        var characters = format.makeIterator()
        while let character = characters.next() {
            if let open = quote {
                query.append(character)
                if character == open { quote = nil }
                continue
            }
            if character == "'" || character == "\"" {
                quote = character
                query.append(character)
                continue
            }
            guard character == "%" else {
                query.append(character)
                continue
            }
            guard let kind = characters.next() else {
                throw RealmError(.query, "the query ends in '%': write %@ for an argument or %K for a property name")
            }
            guard next < args.endIndex else {
                throw RealmError(.query, "the query has more %@ and %K than the \(args.count) arguments given")
            }
            let argument = args[next]
            next += 1
            switch kind {
            case "@":
                query += "$\(arguments.count)"
                arguments.append(try queryArgument(argument))
            case "K":
                guard let name = argument as? String else {
                    throw RealmError(.query, "%K takes a property name (a String), not \(type(of: argument))")
                }
                query += name
            default:
                throw RealmError(.query, "'%\(kind)' is not a substitution here: write %@ for an argument or %K for a property name")
            }
        }
        // With no % substitution, the arguments are the query's $0, $1, ...
        if arguments.isEmpty && next == args.startIndex {
            arguments = try args.map(queryArgument)
        }
        return (query, arguments)
    }

    static func queryArgument(_ argument: Any) throws(RealmError) -> QueryArgument {
        if let object = argument as? Object {
            guard let managed = object.managed else {
                throw RealmError(.invalidArgument, "an unmanaged object cannot be a query argument: add it to the realm first")
            }
            return .value(.link(ObjectLink(table: managed.classInfo.tableID, key: managed.key)))
        }
        // nil, or NSNull: how an NSPredicate argument list spells nil.
        if isNil(argument) || argument is NSNull { return .value(.null) }
        if case .object(let object)? = argument as? AnyRealmValue { return try queryArgument(object) }
        if let value = argument as? any _Persistable, !(value is any _QueryCollection) {
            return .value(try translatingErrors { try value._rlmValue(in: nil).raw })
        }
        if let sequence = argument as? any Sequence {
            var values: [Value] = []
            for element in sequence {
                guard case .value(let value) = try queryArgument(element) else {
                    throw RealmError(.invalidArgument, "a list argument cannot hold lists")
                }
                values.append(value)
            }
            return .list(values)
        }
        return .value(try translatingErrors { try Value(swiftValue: argument) })
    }
}
