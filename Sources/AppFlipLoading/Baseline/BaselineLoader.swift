import AppFlipChecks
import AppFlipModel
import AppFlipSyntax
import Foundation

/// Reads a baseline file, written in the case-file syntax:
///
/// ```
/// known_failures:
///   - requirement: AF-LINK-010        # or  case: app-link/state/space
///     reason: the state is re-encoded; fixed in 2.4 (TICKET-123)
///     expires: 2027-01-31
/// ```
/// Every entry needs a reason and an expiry date; a malformed file is an error with its line and column.
package enum BaselineLoader {
    package static func load(path: String) throws(DiagnosticList) -> Baseline {
        try load(bytes: BoundedFile.readSyntaxFile(path, what: "the baseline file"), file: path)
    }

    package static func load(bytes: [UInt8], file: String) throws(DiagnosticList) -> Baseline {
        let node = try Parser.parse(bytes: bytes, file: file)
        var reader = NodeReader(document: bytes)
        var entries: [Baseline.Entry] = []
        if let document = reader.mapping(node, "the baseline"),
            reader.checkKeys(document, allowed: ["known_failures"], required: ["known_failures"], in: "the baseline"),
            let list = document["known_failures"].flatMap({ reader.sequence($0, "'known_failures'") })
        {
            for item in list.items {
                guard let entry = entry(item, reader: &reader) else { continue }
                if entries.contains(where: { $0.subject == entry.subject }) {
                    reader.error(at: item.location, "\(entry.subject) is listed twice")
                }
                entries.append(entry)
            }
        }
        if !reader.diagnostics.isEmpty { throw DiagnosticList(reader.diagnostics) }
        return Baseline(entries: entries, path: file, bytes: bytes)
    }

    private static func entry(_ node: Node, reader: inout NodeReader) -> Baseline.Entry? {
        guard let mapping = reader.mapping(node, "a known failure"),
            reader.checkKeys(
                mapping, allowed: ["requirement", "case", "reason", "expires"], required: ["reason", "expires"],
                in: "a known failure"),
            let reason = mapping["reason"].flatMap({ reader.scalar($0, "'reason'") }),
            let expires = mapping["expires"].flatMap({ reader.scalar($0, "'expires'") })
        else { return nil }
        let subject: Baseline.Entry.Subject
        switch (mapping["requirement"].flatMap { reader.scalar($0, "'requirement'") }, mapping["case"].flatMap { reader.scalar($0, "'case'") }) {
        case (let requirement?, nil):
            guard RequirementReference.isWellFormedID(requirement.text) else {
                reader.error(at: requirement.location, "'\(requirement.text)' is not a requirement ID (upper-case words and digits joined by '-')")
                return nil
            }
            subject = .requirement(requirement.text)
        case (nil, let conformanceCase?):
            subject = .conformanceCase(conformanceCase.text)
        default:
            reader.error(at: node.location, "a known failure names exactly one of 'requirement' or 'case'")
            return nil
        }
        guard reason.text.trimmingCharacters(in: .whitespaces).count >= 3 else {
            reader.error(
                at: reason.location,
                "'reason' says why the failure is accepted for now, in at least 3 characters "
                    + "('\(reason.text)' is \(reason.text.trimmingCharacters(in: .whitespaces).count)): a ticket, a release, a sentence")
            return nil
        }
        guard isDate(expires.text) else {
            reader.error(at: expires.location, "'expires' is a date that exists, YYYY-MM-DD ('\(expires.text)' is not)")
            return nil
        }
        return Baseline.Entry(subject: subject, reason: reason.text, expires: expires.text, location: node.location)
    }

    /// `YYYY-MM-DD` with a month 01-12 and a day 01-31.
    static func isDate(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]), (1...12).contains(month)
        else { return false }
        // A day the month has (2025-02-29 and 2026-04-31 do not exist), leap years by the Gregorian rule.
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        return (1...days).contains(day)
    }
}
