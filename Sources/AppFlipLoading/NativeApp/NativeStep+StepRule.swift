import AppFlipChecks
import AppFlipModel

extension NativeStep {
    /// Only the native checks judge a native-client step, and they judge nothing else.
    static let stepRule = AppStepRule(
        scope: .native, sends: { if case .native = $0 { true } else { false } }, judgesTheProcess: false,
        notJudging: { "'\($0)' does not judge a native-client step (its checks: \(CheckRegistry.keys(in: .native).joined(separator: ", ")))" },
        judgingElsewhere: { "'\($0)' judges a native-client step (\(NativeStep.Command.allCases.map(\.rawValue).joined(separator: ", ")))" })
}
