/// A value kept in one shared box and copied on write, as the standard library's arrays are: a copy of it is one
/// reference, however large the value. For the model's large values held many times over (a case is held by the
/// suite, the selection and its result; a run of 100,000 cases passes its results around by the thousand).
package struct CopyOnWrite<Value: Hashable & Sendable>: Hashable, Sendable {
    /// Changed only through `value`'s modify accessor, which copies it first unless this holds the only reference.
    /// Unchecked Sendable: the value changes only while this box is its holder's only reference (copied first otherwise).
    private final class Box: @unchecked Sendable {
        var value: Value
        init(_ value: Value) { self.value = value }
    }

    private var box: Box

    package init(_ value: Value) { box = Box(value) }

    /// Read in place; changed in place when this is the only holder, else on a copy of its own.
    package var value: Value {
        _read { yield box.value }
        _modify {
            if !isKnownUniquelyReferenced(&box) { box = Box(box.value) }
            yield &box.value
        }
    }

    package static func == (lhs: CopyOnWrite, rhs: CopyOnWrite) -> Bool { lhs.box === rhs.box || lhs.box.value == rhs.box.value }
    package func hash(into hasher: inout Hasher) { box.value.hash(into: &hasher) }
}
