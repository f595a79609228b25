import AppFlipModel

/// Findings that are the same failure: the same requirement, the same expectation and an observation of the same
/// shape (values such as codes, states and numbers masked), or target errors whose messages have the same shape.
/// One bug behind sixty cases is one group, read once.
package struct FindingGroup: Sendable {
    package enum Kind: Sendable, Hashable {
        /// A check that did not hold (fail, warn or info by the requirement's level).
        case check(RequirementReference, expected: String)
        /// A case that ended in error before it could be judged (crash, timeout, unusable answer).
        case targetError
        /// A case the suite itself could not run (out of descriptors, memory or processes): nothing is blamed on the target.
        case suiteError
    }

    package struct Member: Sendable {
        package var result: CaseResult
        /// What this case observed (the check's observation, or the error message).
        package var observed: String
    }

    package var kind: Kind
    package var verdict: Verdict
    package var shape: String
    package var members: [Member]

    package var representative: Member { members[0] }

    /// The groups of a run's findings of the given verdicts: failures first, then errors, warnings and notes; within
    /// each the largest group first, then
    /// the order of the first case. A case with findings under two requirements is in two groups.
    /// `known`: the failures a baseline accepts (their own section) rather than the ones that stand.
    package static func groups(of results: [CaseResult], verdicts: Set<Verdict>, known: Bool = false) -> [FindingGroup] {
        var groups: [FindingGroup] = []
        var index: [String: Int] = [:]
        func add(_ kind: Kind, _ verdict: Verdict, _ observed: String, _ result: CaseResult) {
            let shape = Self.shape(of: observed)
            let key: String
            switch kind {
            case .check(let requirement, let expected): key = "\(verdict.rawValue)|\(requirement)|\(expected)|\(shape)"
            case .targetError: key = "error|\(shape)"
            case .suiteError: key = "suite|\(shape)"
            }
            if let position = index[key] {
                groups[position].members.append(Member(result: result, observed: observed))
            } else {
                index[key] = groups.count
                groups.append(FindingGroup(kind: kind, verdict: verdict, shape: shape, members: [Member(result: result, observed: observed)]))
            }
        }
        for result in results where verdicts.contains(result.verdict) && result.isKnown == known {
            let findings = result.findings.filter { verdicts.contains($0.verdict) }
            if let fault = result.suiteFault {
                add(.suiteError, .error, fault, result)
            } else if result.verdict == .error && findings.isEmpty {
                add(.targetError, .error, result.message ?? "no answer", result)
            }
            for check in findings {
                add(.check(check.requirement, expected: check.expected), check.verdict, check.observed, result)
            }
        }
        return groups.enumerated().sorted { lhs, rhs in
            if lhs.element.verdict != rhs.element.verdict { return rank(lhs.element.verdict) < rank(rhs.element.verdict) }
            if lhs.element.members.count != rhs.element.members.count { return lhs.element.members.count > rhs.element.members.count }
            return lhs.offset < rhs.offset
        }.map(\.element)
    }

    /// The observation with its values masked: quoted or redacted text, long tokens and numbers. Two cases that
    /// saw "no state parameter", or "state 'a%2520b' instead of 'a%20b'" with different values, have one shape.
    package static func shape(of observed: String) -> String {
        var result = ""
        var token = ""
        var quote: Character?
        var previous: Character = " "
        func flushToken() {
            if token.count >= 16 && token.contains(where: \.isNumber) {
                result += "…"
            } else if !token.isEmpty && token.allSatisfy(\.isNumber) {
                result += "#"
            } else {
                result += token
            }
            token = ""
        }
        for character in observed {
            if let open = quote {
                if character == Self.closing(open) {
                    result.append(character)
                    quote = nil
                }
                continue
            }
            // A quote opens only where a value starts (not the apostrophe of "app's").
            let opens = character == "‹" || character == "`" || ((character == "'" || character == "\"") && !previous.isLetter && !previous.isNumber)
            previous = character
            if opens {
                flushToken()
                result += String(character) + "…"
                quote = character
                continue
            }
            if character.isLetter || character.isNumber || character == "_" || character == "-" || character == "%" {
                token.append(character)
            } else {
                flushToken()
                result.append(character)
            }
        }
        flushToken()
        return result
    }

    /// Violations first, then the cases that could not be judged, then warnings and notes.
    private static func rank(_ verdict: Verdict) -> Int {
        switch verdict {
        case .fail: 0
        case .error: 1
        case .warn: 2
        case .info: 3
        case .skip, .pass: 4
        }
    }

    private static func closing(_ open: Character) -> Character { open == "‹" ? "›" : open }
}
