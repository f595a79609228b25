import AppFlipBase
import AppFlipModel

/// Small formatting helpers shared by the report writers.
enum ReportFormatting {
    /// Seconds with at most three decimals and no grouping: `0.012`.
    static func seconds(_ value: Double) -> String {
        var bytes = ByteBuffer(capacity: 24)
        appendSeconds(value, to: &bytes)
        return bytes.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// `seconds`, appended digit by digit (every case's time is written into three reports).
    static func appendSeconds(_ value: Double, to bytes: inout ByteBuffer) {
        // Rounded to whole milliseconds as `Int` rounds; a time too large for one (none is) is written as the largest.
        let scaled = (max(0, value) * 1000).rounded()
        let milliseconds = scaled < 9.2e18 ? Int(scaled) : Int.max
        appendDecimal(milliseconds / 1000, to: &bytes)
        let fraction = milliseconds % 1000
        bytes.append(UInt8(ascii: "."))
        bytes.append(UInt8(ascii: "0") + UInt8(fraction / 100))
        bytes.append(UInt8(ascii: "0") + UInt8(fraction / 10 % 10))
        bytes.append(UInt8(ascii: "0") + UInt8(fraction % 10))
    }

    /// A number that is not negative in decimal digits, as `String(number)` writes it.
    static func appendDecimal(_ number: Int, to bytes: inout ByteBuffer) {
        let number = max(0, number)
        var divisor = 1
        while number / divisor >= 10 { divisor *= 10 }
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(number / divisor % 10))
            divisor /= 10
        } while divisor > 0
    }

    /// The case's checks that could not be judged, one entry per requirement and reason with how many checks share it
    /// ("AF-LINK-006 MUST: 3 checks not judged — nothing was opened …"), as every report's evidence says them.
    static func notJudged(_ result: CaseResult) -> [(requirement: RequirementReference, reason: String, count: Int)] {
        var entries: [(requirement: RequirementReference, reason: String, count: Int)] = []
        for check in result.notApplicable {
            let reason = check.notApplicable ?? ""
            if let index = entries.firstIndex(where: { $0.requirement == check.requirement && $0.reason == reason }) {
                entries[index].count += 1
            } else {
                entries.append((check.requirement, reason, 1))
            }
        }
        return entries
    }

    /// `app-link/redirect-uri` → `app-link.redirect-uri`.
    static func className(_ group: String) -> String {
        // Byte for byte: '/' and '.' are ASCII, and no byte of a longer UTF-8 sequence is either (every test case's
        // class name is made here).
        String(decoding: group.utf8.map { $0 == UInt8(ascii: "/") ? UInt8(ascii: ".") : $0 }, as: UTF8.self)
    }

    /// `AF-LINK-005 MUST NOT`.
    static func requirementList(_ result: CaseResult) -> String {
        requirementList(result.conformanceCase, outlines: result.checkOutlines)
    }

    /// `requirementList` from checks already read.
    static func requirementList(_ conformanceCase: ConformanceCase, checks: [CheckResult]) -> String {
        requirementList(CaseResult.requirements(of: conformanceCase, checks: checks))
    }

    /// `requirementList` from outlines already read.
    static func requirementList(_ conformanceCase: ConformanceCase, outlines: [CheckOutline]) -> String {
        requirementList(CaseResult.requirements(of: conformanceCase, outlines: outlines))
    }

    /// `requirementList` of requirements already worked out (`CaseResult.requirements`).
    static func requirementList(_ references: [RequirementReference]) -> String {
        var bytes = ByteBuffer(capacity: references.reduce(0) { $0 + $1.id.utf8.count + 12 })
        appendRequirementList(references, to: &bytes)
        return bytes.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// `requirementList`, appended as it is (no escapes: a writer that needs them escapes the string).
    static func appendRequirementList(_ references: [RequirementReference], to bytes: inout ByteBuffer) {
        // Written as bytes (each case's list is written into junit.xml, report.md and report.html): an ID is read
        // where it is, a level's name is the suite's own text.
        for (index, reference) in references.enumerated() {
            if index > 0 { bytes.append(", ") }
            bytes.append(utf8: reference.id)
            bytes.append(UInt8(ascii: " "))
            bytes.append(levelName(reference.level))
        }
    }

    /// `level.rawValue`, as static text.
    private static func levelName(_ level: Level) -> StaticString {
        switch level {
        case .must: "MUST"
        case .mustNot: "MUST NOT"
        case .should: "SHOULD"
        case .shouldNot: "SHOULD NOT"
        case .may: "MAY"
        }
    }

    static func location(_ conformanceCase: ConformanceCase) -> String {
        "\(conformanceCase.location.file):\(conformanceCase.location.line)"
    }

    /// The groups in first-seen order, with their results.
    static func groups(_ results: [CaseResult]) -> [(name: String, results: [CaseResult])] {
        var order: [String] = []
        var byGroup: [String: [CaseResult]] = [:]
        for result in results {
            let group = result.conformanceCase.group
            if byGroup[group] == nil { order.append(group) }
            byGroup[group, default: []].append(result)
        }
        return order.map { ($0, byGroup[$0] ?? []) }
    }
}
