import AppFlipBase

/// A recorded case's checks as numbers into its run's `TextTable`: four 32-bit words a check (the requirement's
/// ID, its level with the verdict and whether the check applied, the expectation, and what was seen or why the
/// check did not apply). Unpacked, they are the very checks that were packed.
struct PackedChecks: Sendable {
    private let table: TextTable
    private let words: [UInt32]

    /// Nil when the table is full (four billion texts): the checks then stay as they are.
    init?(_ checks: [CheckResult], into table: TextTable) {
        guard
            let words = table.numbering(
                atMost: 3 * checks.count,
                { number -> [UInt32] in
                    var words: [UInt32] = []
                    words.reserveCapacity(4 * checks.count)
                    for check in checks {
                        words.append(number(check.requirement.id))
                        words.append(
                            UInt32(Self.index(of: check.requirement.level, in: Self.levels))
                                | UInt32(Self.index(of: check.verdict, in: Self.verdicts)) << 8
                                | (check.isApplicable ? 1 << 16 : 0))
                        words.append(number(check.expected))
                        words.append(number(check.seenText))
                    }
                    return words
                })
        else { return nil }
        self.table = table
        self.words = words
    }

    var count: Int { words.count / 4 }

    var checks: [CheckResult] {
        table.reading { text in
            var checks: [CheckResult] = []
            checks.reserveCapacity(count)
            var index = 0
            while index < words.count {
                let flags = words[index + 1]
                checks.append(
                    CheckResult(
                        requirement: RequirementReference(id: text(words[index]), level: Self.levels[Int(flags & 0xFF)]),
                        verdict: Self.verdicts[Int(flags >> 8 & 0xFF)], expected: text(words[index + 2]),
                        seenText: text(words[index + 3]), applicable: flags & 1 << 16 != 0))
                index += 4
            }
            return checks
        }
    }

    private static let levels = Level.allCases
    private static let verdicts = Verdict.allCases

    private static func index<Value: Equatable>(of value: Value, in values: [Value]) -> Int {
        // Six values at most, each present: the loop always returns.
        for (index, candidate) in values.enumerated() where candidate == value { return index }
        return 0
    }
}
