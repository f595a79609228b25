import Foundation

/// Seconds as the runner's messages show them: whole numbers bare (`5`), others to three significant digits (`0.25`).
package func secondsText(_ seconds: Double) -> String {
    seconds == seconds.rounded() ? String(Int(seconds)) : String(format: "%.3g", seconds)
}

extension StepExecutor {
    /// A duration in seconds.
    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
