/// A partner's target under one adapter contract (`TargetUnderTest.adapters`): what every contract's target tells
/// the run, whatever its transport.
package protocol AdapterTarget: Sendable {
    /// One line for the report, e.g. `subprocess ./my-adapter --test-mode (one-shot)`.
    var description: String { get }
    /// Ends every process this target started and anything they started (the end of a run); nothing by default.
    func endProcesses()
    /// What the report says about starting the target: the allowance policy and, once measured, the start-up
    /// times. Nil for a target that starts nothing.
    func startupReport(timeout: Double) -> (policy: String, measured: String?)?
    /// Checked once before the run: why the target cannot be used at all (it does not start, or exits without an
    /// answer; its URL takes no connection), with its own words, or nil when it can. Every case would otherwise
    /// repeat the same error.
    func preflight(timeout: Double) -> String?
    /// The program the target starts and its arguments, for the report's adapter digests; nil for a target that
    /// starts none (a URL, in-process).
    var program: (executable: String, arguments: [String])? { get }
}

extension AdapterTarget {
    package func endProcesses() {}
    package func startupReport(timeout: Double) -> (policy: String, measured: String?)? { nil }
    package func preflight(timeout: Double) -> String? { nil }
    package var program: (executable: String, arguments: [String])? { nil }
}

/// A target that answers each request with one answer (a JSON Lines adapter, behind a subprocess, a URL or
/// in-process). It hands out sessions; each worker of a run uses its own.
package protocol ExchangeTarget: AdapterTarget {
    func makeSession() -> any ExchangeSession
}

/// A worker's connection to an `ExchangeTarget`. Not shared between threads.
package protocol ExchangeSession: AnyObject {
    func exchange(_ request: HandlerRequest, timeout: Double) -> TargetExchange
    /// Ends whatever the session keeps alive (a persistent process).
    func close()
}
