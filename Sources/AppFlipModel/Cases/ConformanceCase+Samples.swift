/// `--samples N`: how many values a sampling check (`distinct`, `entropy_bits`) judges, chosen per run. A case
/// states its own count (`repeat:`); a reviewer who wants more confidence, or a partner whose flows are slow,
/// changes it without editing case files.
extension ConformanceCase {
    /// The bounds of a sample: two values are the fewest a sample check can compare; 100 is `repeat`'s own bound.
    package static let sampleRange = 2...100

    /// Whether any check of the case judges values captured over repetitions.
    package var takesSamples: Bool {
        steps.contains { step in step.judgesSamples }
    }

    /// The case with its samples taken `count` times: the repeat of each step whose checks judge samples, or the
    /// case's own repeat when it repeats the whole sequence (its samples then span several steps).
    package func sampled(_ count: Int) -> ConformanceCase {
        guard takesSamples else { return self }
        var result = self
        if repeatCount > 1 {
            result.repeatCount = count
        } else {
            for index in result.steps.indices where result.steps[index].judgesSamples {
                result.steps[index].repeatCount = count
            }
        }
        return result
    }
}

extension Step {
    var judgesSamples: Bool {
        checks.contains { group in group.expectation.checks.contains { $0.base.scope == .samples } }
    }
}
