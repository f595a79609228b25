/// Why a case says nothing of the target's conformance through no fault of the target's answers: the suite itself
/// failed, the run's configuration was rejected before the case was sent, or a target the case needs could not be
/// used before the run. A case has one at most; the reports say each once for the run, from this value, never from
/// the case's message.
package enum RunFault: Sendable, Hashable {
    /// The suite ran out of its own resources (descriptors, memory, processes): the case judged nothing.
    case suite(String)
    /// The run's configuration is wrong (the target rejected the configured credentials): the case was not sent.
    case configuration(String)
    /// A target the case needs could not be used before the run: the case was not sent.
    case unreachable(UnreachableTarget)
}
