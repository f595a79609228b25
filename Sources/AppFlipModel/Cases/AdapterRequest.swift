/// A step of an adapter contract registered besides the suite's own (a library user's or a test's): the key of the
/// contract that sends it and the values it sends, each a template resolved when sent. The case format has no
/// syntax for such a step; it is built in Swift, beside its contract.
package struct AdapterRequest: Sendable, Hashable {
    /// The key of the contract that sends it (as the runner's contract registry names it).
    package var contract: String
    package var values: [String: Template]

    package init(contract: String, values: [String: Template] = [:]) {
        self.contract = contract
        self.values = values
    }
}
