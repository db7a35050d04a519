extension Realm {
    /// All objects of a class, as live results.
    package func objects(_ classInfo: ClassInfo) -> Results {
        Results(realm: self, classInfo: classInfo)
    }
}
