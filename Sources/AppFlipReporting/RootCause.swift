import AppFlipBase
import AppFlipModel

/// One observed behaviour behind failures under several requirements: a handler that drops the state fails
/// AF-LINK-010, -006, -023 and -002 with the same "no state parameter". Failing cases are put under the elementary
/// observation (one part of an observed text, its values masked) that most failing cases share, then the next, until
/// every failing case has one: the report opens with these, each listing the requirements and cases it breaks.
package struct RootCause: Sendable {
    /// The shared observation, as the first case observed it.
    package var observed: String
    /// The requirements it breaks, each with its number of cases and the index of its first finding group.
    package var requirements: [(reference: RequirementReference, cases: Int, group: Int)]
    /// The failing cases it covers, in run order.
    package var cases: [CaseResult]

    /// The root causes of the failing findings in `groups` (the run's failure groups, in report order), the most
    /// widespread first.
    package static func causes(of groups: [FindingGroup]) -> [RootCause] {
        let (parts, results, shapes) = numberedParts(of: groups)
        var remaining = [Bool](repeating: true, count: parts.count)
        var remainingCount = parts.count
        var causes: [RootCause] = []
        while remainingCount > 0 {
            guard let best = mostShared(shapes: shapes, parts: parts, remaining: remaining) else { break }
            var cause = RootCause(observed: "", requirements: [], cases: [])
            for position in parts.indices where remaining[position] {
                let matching = parts[position].filter { $0.shape == best }
                guard !matching.isEmpty else { continue }
                remaining[position] = false
                remainingCount -= 1
                cause.cases.append(results[position])
                if cause.observed.isEmpty { cause.observed = matching[0].text }
                // Each requirement once per case, with the first finding group it was seen in.
                var counted: [RequirementReference] = []
                for part in matching where !counted.contains(part.reference) {
                    counted.append(part.reference)
                    if let row = cause.requirements.firstIndex(where: { $0.reference == part.reference }) {
                        cause.requirements[row].cases += 1
                        cause.requirements[row].group = min(cause.requirements[row].group, part.group)
                    } else {
                        cause.requirements.append((part.reference, 1, part.group))
                    }
                }
            }
            cause.requirements.sort { $0.cases != $1.cases ? $0.cases > $1.cases : $0.group < $1.group }
            causes.append(cause)
        }
        return causes
    }

    /// An elementary observation of a failing case: its shape's number, its text, and the group (and requirement)
    /// it came from.
    private struct Part {
        var shape: Int
        var text: String
        var group: Int
        var reference: RequirementReference
    }

    /// Each failing case's elementary observations, shaped. Cases and shapes are numbered as first seen (cases in
    /// run order), so the rounds of `causes` count in arrays: the parts by case, the case results, the shapes.
    private static func numberedParts(of groups: [FindingGroup]) -> ([[Part]], [CaseResult], [String]) {
        var positions: [String: Int] = [:]
        var parts: [[Part]] = []
        var results: [CaseResult] = []
        var shapeNumbers: [String: Int] = [:]
        var shapes: [String] = []
        // Many cases fail with the same observation (one bug, the same words): each distinct one is split and
        // shaped once.
        var numbered: [String: [(text: String, shape: Int)]] = [:]
        for (index, group) in groups.enumerated() {
            guard case .check(let reference, _) = group.kind, group.verdict == .fail else { continue }
            for member in group.members {
                let id = member.result.conformanceCase.id
                let position: Int
                if let known = positions[id] {
                    position = known
                    results[position] = member.result
                } else {
                    position = parts.count
                    positions[id] = position
                    parts.append([])
                    results.append(member.result)
                }
                if numbered[member.observed] == nil {
                    numbered[member.observed] = elements(of: member.observed).map { text in
                        let shape = FindingGroup.shape(of: text)
                        let number = shapeNumbers[shape] ?? shapes.count
                        if number == shapes.count {
                            shapeNumbers[shape] = number
                            shapes.append(shape)
                        }
                        return (text, number)
                    }
                }
                for (text, number) in numbered[member.observed] ?? [] {
                    parts[position].append(Part(shape: number, text: text, group: index, reference: reference))
                }
            }
        }
        return (parts, results, shapes)
    }

    /// The shape most of the remaining cases show; ties go to the shape seen first, then to the text's order, so the
    /// same run reads the same every time. Nil when no remaining case has a part.
    private static func mostShared(shapes: [String], parts: [[Part]], remaining: [Bool]) -> Int? {
        var counts = [Int](repeating: 0, count: shapes.count)
        var first = [Int](repeating: 0, count: shapes.count)
        var countedIn = [Int](repeating: -1, count: shapes.count)
        for position in parts.indices where remaining[position] {
            for part in parts[position] where countedIn[part.shape] != position {
                countedIn[part.shape] = position
                if counts[part.shape] == 0 { first[part.shape] = position }
                counts[part.shape] += 1
            }
        }
        return counts.indices.filter { counts[$0] > 0 }.min { lhs, rhs in
            let left = (-counts[lhs], first[lhs])
            let right = (-counts[rhs], first[rhs])
            return left != right ? left < right : shapes[lhs] < shapes[rhs]
        }
    }

    /// The parts of an observed text: a `one_of`'s "(1) …; (2) …" and a list of problems "a; b" are several
    /// observations, each of which may be the shared one.
    static func elements(of observed: String) -> [String] {
        var parts: [String] = []
        for piece in pieces(of: observed) {
            var text = Substring(piece.trimmingSpaces())
            if text.hasPrefix("("), let close = text.firstIndex(of: ")"), text[text.index(after: text.startIndex)..<close].allSatisfy(\.isNumber) {
                text = text[text.index(after: close)...].drop { $0 == " " }
            }
            if !text.isEmpty, !parts.contains(String(text)) { parts.append(String(text)) }
        }
        return parts.isEmpty ? [observed] : parts
    }

    /// `observed` cut at each "; ", as Foundation's `components(separatedBy:)` cuts it, read as bytes (every failing
    /// finding of a run is read here).
    private static func pieces(of observed: String) -> [Substring] {
        let utf8 = observed.utf8
        var pieces: [Substring] = []
        var start = utf8.startIndex
        var index = start
        while index != utf8.endIndex {
            let next = utf8.index(after: index)
            // A separator both of whose ends are between characters ("; " then a combining mark is no separator).
            if utf8[index] == UInt8(ascii: ";"), next != utf8.endIndex, utf8[next] == UInt8(ascii: " "),
                index.samePosition(in: observed) != nil, utf8.index(after: next).samePosition(in: observed) != nil
            {
                pieces.append(observed[start..<index])
                index = utf8.index(after: next)
                start = index
            } else {
                index = next
            }
        }
        pieces.append(observed[start..<utf8.endIndex])
        return pieces
    }
}
