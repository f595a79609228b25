import AppFlipBase
import AppFlipModel

/// What sending a step left.
package enum AdapterSending {
    /// The exchange is over and reading its answer is all that is left, which needs none of the worker's
    /// connections (so any thread may do it): the observation and the parameters sent, or nil when the outcome says
    /// why there is none.
    case sent(@Sendable (inout StepExecutor.CaseState) -> (Observation, [QueryParameter])?)
    /// The step is done: its observation and the parameters sent, or nil when the outcome says why there is none.
    case observed((Observation, [QueryParameter])?)
}
