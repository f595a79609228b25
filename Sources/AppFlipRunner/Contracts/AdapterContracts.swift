import AppFlipModel

/// The adapter contracts a run knows, in the order the report names their targets: the built-in three, and any a
/// library user or a test registers.
package struct AdapterContracts: Sendable {
    package private(set) var all: [any AdapterContract]

    /// The suite's own contracts: the iOS link handler, the native app, the Android activity.
    package static let builtIn = AdapterContracts(all: [LinkHandlerContract(), NativeAppContract(), AndroidActivityContract()])

    /// Adds a contract, after those registered already: a step two contracts would send goes to the earlier one.
    /// A key registered already is refused: two contracts would otherwise share one target.
    package mutating func register(_ contract: any AdapterContract) throws(RegistrationError) {
        if all.contains(where: { $0.key == contract.key }) { throw RegistrationError("a contract is registered under '\(contract.key)' already") }
        all.append(contract)
    }

    /// The contract that sends `action`, or nil for a step no contract sends (an HTTP request to an endpoint).
    package func contract(sending action: Step.Action) -> (any AdapterContract)? {
        all.first { $0.sends(action) }
    }

    package func contract(_ key: AdapterContractKey) -> (any AdapterContract)? {
        all.first { $0.key == key }
    }

    /// Whether a step of `conformanceCase` is sent through `contract`.
    package static func sends(_ conformanceCase: ConformanceCase, through contract: any AdapterContract) -> Bool {
        conformanceCase.steps.contains { contract.sends($0.action) }
    }

    package struct RegistrationError: Error, Sendable, CustomStringConvertible {
        package var description: String
        init(_ description: String) { self.description = description }
    }
}
