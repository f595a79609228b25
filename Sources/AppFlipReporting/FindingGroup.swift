import AppFlipBase
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
    /// Set when another group of the same list has the same verdict and requirement (two expectations of one
    /// requirement that failed): its heading then says which expectation, or the two would read as one listed twice.
    package var sharesHeading = false

    package var representative: Member { members[0] }

    /// What a heading adds to tell this group from another of the same requirement and verdict: the expectation.
    package var headingPart: String? {
        guard sharesHeading, case .check(_, let expected) = kind else { return nil }
        return expected
    }

    /// The groups of a run's findings of the given verdicts: failures first, then errors, warnings and notes; within
    /// each the largest group first, then
    /// the order of the first case. A case with findings under two requirements is in two groups.
    /// `known`: the failures a baseline accepts (their own section) rather than the ones that stand.
    package static func groups(of results: [CaseResult], verdicts: Set<Verdict>, known: Bool = false) -> [FindingGroup] {
        var groups: [FindingGroup] = []
        // A group is its kind (a check's requirement and expectation), its verdict and its shape.
        struct Key: Hashable {
            var kind: Kind
            var verdict: Verdict
            var shape: String
        }
        var index: [Key: Int] = [:]
        // Many findings repeat an observation word for word (one bug, the same answer): each is shaped once.
        var shapes: [String: String] = [:]
        func add(_ kind: Kind, _ verdict: Verdict, _ observed: String, _ result: CaseResult) {
            let shape: String
            if let known = shapes[observed] {
                shape = known
            } else {
                shape = Self.shape(of: observed)
                shapes[observed] = shape
            }
            let key = Key(kind: kind, verdict: verdict, shape: shape)
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
        var headings: [String: Int] = [:]
        for group in groups { if let heading = group.heading { headings[heading, default: 0] += 1 } }
        for index in groups.indices { groups[index].sharesHeading = groups[index].heading.map { headings[$0, default: 0] > 1 } ?? false }
        return groups.enumerated().sorted { lhs, rhs in
            if lhs.element.verdict != rhs.element.verdict { return rank(lhs.element.verdict) < rank(rhs.element.verdict) }
            if lhs.element.members.count != rhs.element.members.count { return lhs.element.members.count > rhs.element.members.count }
            return lhs.offset < rhs.offset
        }.map(\.element)
    }

    /// The verdict and requirement a check group's heading names (nil for errors).
    private var heading: String? {
        guard case .check(let reference, _) = kind else { return nil }
        return verdict.rawValue + "|" + reference.id
    }

    /// The observation with its values masked: quoted or redacted text, long tokens and numbers. Two cases that
    /// saw "no state parameter", or "state 'a%2520b' instead of 'a%20b'" with different values, have one shape.
    package static func shape(of observed: String) -> String {
        let observed = maskingURLPaths(observed)
        // Most observations are ASCII: read as bytes (every failing case's observation is shaped); anything else
        // takes the Character reading.
        if let ascii = observed.utf8.withContiguousStorageIfAvailable(asciiShape), let shape = ascii { return shape }
        return characterShape(of: observed)
    }

    /// The text with each URL cut to its scheme (`https://…`): one defect shows as URLs that differ in their host,
    /// path or query (a redirect_uri matched by prefix opens ten different ones, on both of Google's hosts), and is
    /// one group; the requirement and the expectation still tell groups apart. A URL runs to the first white space
    /// outside a `‹…›` (a redacted value, which may hold spaces), unless a `?` or `#` follows it at once.
    package static func maskingURLPaths(_ text: String) -> String {
        // A byte search first (most observations hold no URL): whatever Foundation finds, it finds.
        guard text.containsBytes("://") else { return text }
        var result = ""
        var rest = Substring(text)
        while let scheme = rest.range(of: "://") {
            result += rest[..<scheme.upperBound]
            var index = scheme.upperBound
            var inRedaction = false
            var cut = false
            while index < rest.endIndex {
                let character = rest[index]
                if character == "‹" { inRedaction = true } else if character == "›" { inRedaction = false }
                // White space the URL itself holds (a space or a line feed left unencoded in its path) is followed
                // by its query or fragment.
                if character.isWhitespace, !inRedaction {
                    let next = rest[index...].dropFirst().first
                    guard next == "?" || next == "#" else { break }
                }
                cut = true
                index = rest.index(after: index)
            }
            if cut { result += "…" }
            rest = rest[index...]
        }
        return result + rest
    }

    /// `shape(of:)` read Character by Character: for any text (and the reading the ASCII one is tested against).
    package static func characterShape(of observed: String) -> String {
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

    /// `shape(of:)` for ASCII text, or nil at the first byte outside ASCII. Each byte is a Character there but for
    /// CR LF, which neither path takes for a quote, a letter or a digit; a token is a run of the text's own bytes.
    private static func asciiShape(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        func isLetterOrDigit(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        let ellipsis = Array("…".utf8)
        var quote: UInt8?
        var previous = UInt8(ascii: " ")
        var tokenStart: Int?
        func flushToken(before end: Int) {
            guard let start = tokenStart else { return }
            let token = UnsafeBufferPointer(rebasing: bytes[start..<end])
            let digits = token.count(where: { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
            if token.count >= 16 && digits > 0 {
                result += ellipsis
            } else if digits == token.count {
                result.append(UInt8(ascii: "#"))
            } else {
                result += token
            }
            tokenStart = nil
        }
        for (index, byte) in bytes.enumerated() {
            guard byte < 0x80 else { return nil }
            if let open = quote {
                if byte == open {
                    result.append(byte)
                    quote = nil
                }
                continue
            }
            let opens = byte == UInt8(ascii: "`") || ((byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"")) && !isLetterOrDigit(previous))
            previous = byte
            if opens {
                flushToken(before: index)
                result.append(byte)
                result += ellipsis
                quote = byte
            } else if isLetterOrDigit(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "%") {
                if tokenStart == nil { tokenStart = index }
            } else {
                flushToken(before: index)
                result.append(byte)
            }
        }
        flushToken(before: bytes.count)
        return String(decoding: result, as: UTF8.self)
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
