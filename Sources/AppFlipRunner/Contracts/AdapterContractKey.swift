/// The name a run holds an adapter contract's target under: how errors, the report and the registry name it
/// ("the link handler"). A contract's key is its identity; two contracts of one key cannot be registered together.
package struct AdapterContractKey: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    package var rawValue: String

    package init(rawValue: String) { self.rawValue = rawValue }

    package var description: String { rawValue }
}
