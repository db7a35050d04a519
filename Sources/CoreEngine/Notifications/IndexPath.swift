/// A position in sectioned results: a section and an object within it.
package struct IndexPath: Hashable, Sendable {
    package var section: Int
    package var item: Int

    package init(section: Int, item: Int) {
        self.section = section
        self.item = item
    }
}
