import Foundation

/// A value a `List` or `MutableSet` may hold as an element that is not an object: the scalars,
/// `AnyRealmValue` and their optionals. What lets a collection of values be observed on its own
/// (`scores.observe { ... }`), as a collection of objects is through `RealmCollection`.
///
/// A marker of the library's: its conformances are these types'; do not add others.
public protocol _PersistableValue: _Persistable {}

extension Bool: _PersistableValue {}
extension Int: _PersistableValue {}
extension Int64: _PersistableValue {}
extension Int32: _PersistableValue {}
extension Int16: _PersistableValue {}
extension Int8: _PersistableValue {}
extension Float: _PersistableValue {}
extension Double: _PersistableValue {}
extension String: _PersistableValue {}
extension Data: _PersistableValue {}
extension Date: _PersistableValue {}
extension UUID: _PersistableValue {}
extension ObjectId: _PersistableValue {}
extension Decimal128: _PersistableValue {}
extension AnyRealmValue: _PersistableValue {}
extension Optional: _PersistableValue where Wrapped: _PersistableValue {}
