import AppFlipBase
import AppFlipModel

/// Writes a run as one self-contained web page for a certification reviewer, from the same findings as report.md
/// (`ReportFindings`, `ReportHeadline`, `SkipLine`): the verdict first, root causes, per-profile counts with a bar
/// each, the failed requirements with their sources, every finding with its evidence in a section that opens,
/// attestations, the requirement matrix, every case and the provenance with the commands to reproduce.
///
/// Everything a target wrote is text (`HTMLText`); the page's own style and script are inline and allowed by hash
/// (`HTMLReportAssets`), with no inline event handler, and nothing is fetched. Without scripts everything shows; with
/// them, filters by profile, level and verdict and a search, kept in the URL fragment (`#verdict=fail&profile=token`).
package struct HTMLReport: Sendable {
    package var run: RunResult
    package var profiles: [String]
    package var reproducible: Bool

    /// The run's findings, when the caller grouped them already (a report set groups them once for both reports).
    package var findings: ReportFindings?

    package init(run: RunResult, profiles: [String], reproducible: Bool = false, findings: ReportFindings? = nil) {
        self.run = run
        self.profiles = profiles
        self.reproducible = reproducible
        self.findings = findings
    }

    /// Finding groups whose evidence the page shows, cases listed per group (and the case IDs a group's search finds
    /// it by; every case is found by its own row), and rows of the every-case table: a 100,000-case run stays a page a
    /// browser opens (results.json has everything).
    static let groupsWithEvidence = 50
    static let casesPerGroup = 100
    static let everyCaseRows = 20_000

    /// The page, written into memory.
    package func render() -> String {
        let sink = ReportSink()
        write(into: sink)
        return sink.text
    }

    /// Writes the page into `sink` section by section: the every-case table row by row, so a long run's page is
    /// never held whole.
    package func write(into sink: ReportSink) {
        let findings = self.findings ?? ReportFindings(run: run)
        let coverage = run.coverage(of: profiles)
        let headline = ReportHeadline(run: run, coverage: coverage)
        sink.append(head(headline))
        sink.append("<body>\n<header>\n<h1>AppFlip Conformance report</h1>\n" + verdictSection(headline, coverage: coverage) + "</header>\n")
        sink.append(filterForm())
        sink.append("<main>\n")
        if findings.causesMerge { sink.append(rootCausesSection(findings.causes)) }
        sink.append(profileSection(coverage))
        sink.append(failedRequirementsSection(findings.failures))
        sink.append(groupsSection("Failures and errors", id: "failures", findings.failures, anchor: "f"))
        if run.baseline != nil { sink.append(groupsSection("Known failures (baseline)", id: "known", findings.known, anchor: "k")) }
        sink.append(groupsSection("Warnings and observations", id: "warnings", findings.warnings, anchor: "w"))
        sink.append(attestationSection() + skippedSection() + matrixSection())
        writeEveryCaseSection(into: sink)
        sink.append(provenanceSection())
        sink.append("</main>\n<script>" + HTMLReportAssets.script + "</script>\n</body>\n</html>\n")
    }

    /// The document's head: its policy first, so nothing after it runs unless the policy allows it.
    private func head(_ headline: ReportHeadline) -> String {
        // The title is the suite's words alone (the verdict's label), never a target's text.
        let label = headline.label.spans.map { span -> String in
            switch span {
            case .suite(let text), .code(let text): text
            case .value: ""
            }
        }.joined()
        return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            + "<meta http-equiv=\"Content-Security-Policy\" content=\"\(HTMLText.text(HTMLReportAssets.contentSecurityPolicy))\">\n"
            + "<meta name=\"referrer\" content=\"no-referrer\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            + "<title>AppFlip Conformance: \(HTMLText.text(label))</title>\n<style>" + HTMLReportAssets.style + "</style>\n</head>\n"
    }

    /// The filters, hidden until the script shows them (without scripts, everything is shown and nothing filters).
    private func filterForm() -> String {
        var form = "<form id=\"filters\" hidden>\n<label>Verdict <select name=\"verdict\"><option value=\"\">any</option>"
        for verdict in Verdict.allCases { form += "<option>\(verdict.rawValue)</option>" }
        form += "</select></label>\n<label>Profile <select name=\"profile\"><option value=\"\">any</option>"
        for profile in profiles { form += "<option>\(HTMLText.text(profile))</option>" }
        form += "</select></label>\n<label>Level <select name=\"level\"><option value=\"\">any</option>"
        for level in Level.allCases { form += "<option value=\"\(Self.token(level))\">\(level.rawValue)</option>" }
        form +=
            "</select></label>\n<label>Requirement or case <input name=\"q\" type=\"search\" placeholder=\"AF-LINK-010, app-link/state\"></label>\n"
        return form + "<button type=\"button\" id=\"filter-reset\">Clear</button> <span id=\"filter-count\"></span>\n</form>\n"
    }

    /// A level as a filter token: `MUST NOT` → `MUST-NOT`.
    static func token(_ level: Level) -> String {
        // Every filterable row asks for its levels' tokens: written out, not made by Foundation's replacing each time.
        switch level {
        case .must: "MUST"
        case .mustNot: "MUST-NOT"
        case .should: "SHOULD"
        case .shouldNot: "SHOULD-NOT"
        case .may: "MAY"
        }
    }

    /// The attributes that make an element filterable: its verdicts, profiles, levels and what a search finds it by.
    static func filterAttributes(verdicts: [Verdict], profiles: [String], levels: [Level], search: [String]) -> String {
        var bytes = ByteBuffer(capacity: 96 + search.reduce(0) { $0 + $1.utf8.count + 1 })
        appendFilterAttributes(verdicts: verdicts, profiles: profiles, levels: levels, search: search, to: &bytes)
        return bytes.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// `filterAttributes`, appended to `bytes`.
    static func appendFilterAttributes(verdicts: [Verdict], profiles: [String], levels: [Level], search: [String], to bytes: inout ByteBuffer) {
        // Written as bytes, each list's repeats dropped by a look back (a set when long), nothing joined in between.
        bytes.append(#" data-f data-verdict=""#)
        for (index, verdict) in verdicts.enumerated() where !verdicts[..<index].contains(verdict) {
            appendListValue(verdict.rawValue, first: index == 0, escaped: false, to: &bytes)
        }
        bytes.append(#"" data-profile=""#)
        appendDistinct(profiles, escaped: true, to: &bytes)
        bytes.append(#"" data-level=""#)
        appendLevels(levels, to: &bytes)
        bytes.append(#"" data-search=""#)
        appendDistinct(search, escaped: true, lowercased: true, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    /// `appendFilterAttributes` for a case's row (every case has one): its verdict, its profile, its requirements'
    /// levels, and its ID and its requirements' IDs to search by, with no list made for any of them.
    /// `plainIDs` says every requirement ID is plain ASCII (`HTMLText.isPlainASCII`): two such IDs are equal only byte
    /// for byte, so their lengths are compared first.
    static func appendCaseFilterAttributes(
        verdict: Verdict, profile: String, id: String, requirements: [RequirementReference], plainIDs: Bool, to bytes: inout ByteBuffer
    ) {
        bytes.append(#" data-f data-verdict=""#)
        appendListValue(verdict.rawValue, first: true, escaped: false, to: &bytes)
        bytes.append(#"" data-profile=""#)
        appendListValue(profile, first: true, escaped: true, to: &bytes)
        bytes.append(#"" data-level=""#)
        appendLevels(requirements.lazy.map(\.level), to: &bytes)
        bytes.append(#"" data-search=""#)
        // Two ASCII strings are equal only byte for byte: their lengths are compared first.
        let idIsASCII = appendListValue(id, first: true, escaped: true, lowercased: true, to: &bytes)
        // A case lists each requirement once, an ID twice only with two levels, and its own ID may be one of them.
        var seen = requirements.count > 16 ? Set([id]) : []
        for (index, requirement) in requirements.enumerated() {
            let count = requirement.id.utf8.count
            let repeated =
                seen.isEmpty
                ? (!(plainIDs && idIsASCII) || id.utf8.count == count) && requirement.id == id
                    || requirements[..<index].contains { (!plainIDs || $0.id.utf8.count == count) && $0.id == requirement.id }
                : !seen.insert(requirement.id).inserted
            guard !repeated else { continue }
            // A plain ASCII ID has nothing to escape: it is only lower-cased as it is copied.
            let copied =
                plainIDs
                ? requirement.id.utf8.withContiguousStorageIfAvailable { (id: UnsafeBufferPointer<UInt8>) -> Void in
                    bytes.append(UInt8(ascii: " "))
                    for byte in id { bytes.append((byte &- UInt8(ascii: "A")) < 26 ? byte | 0x20 : byte) }
                } != nil : false
            if !copied { appendListValue(requirement.id, first: false, escaped: true, lowercased: true, to: &bytes) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Each level's token once, in the order first seen (tokens and levels are one to one): seen levels kept as bits,
    /// and each token copied as it is, plain upper-case ASCII with nothing to escape.
    private static func appendLevels(_ levels: some Collection<Level>, to bytes: inout ByteBuffer) {
        var seen: UInt8 = 0
        for level in levels {
            let bit: UInt8 =
                switch level {
                case .must: 1
                case .mustNot: 2
                case .should: 4
                case .shouldNot: 8
                case .may: 16
                }
            guard seen & bit == 0 else { continue }
            if seen != 0 { bytes.append(UInt8(ascii: " ")) }
            seen |= bit
            bytes.append(utf8: token(level))
        }
    }

    /// Each value once, in the order first seen: a look back, or a set for a long list.
    private static func appendDistinct(_ values: [String], escaped: Bool, lowercased lower: Bool = false, to bytes: inout ByteBuffer) {
        var seen = Set<String>()
        for (index, value) in values.enumerated() {
            let repeated = values.count > 16 ? !seen.insert(value).inserted : values[..<index].contains(value)
            if !repeated { appendListValue(value, first: index == 0, escaped: escaped, lowercased: lower, to: &bytes) }
        }
    }

    /// One value of a list, after a space unless it is the first: a printable ASCII value (IDs, titles, profiles:
    /// nearly every one) lower-cased and escaped as it is copied; any other through `lowercased` and
    /// `HTMLText.text`, which give the same for ASCII.
    /// Says whether the value was printable ASCII.
    @discardableResult
    private static func appendListValue(
        _ value: String, first: Bool, escaped: Bool, lowercased lower: Bool = false, to bytes: inout ByteBuffer
    ) -> Bool {
        if !first { bytes.append(UInt8(ascii: " ")) }
        let copied = value.utf8.withContiguousStorageIfAvailable { appendPrintableASCII($0, to: &bytes, escaped: escaped, lowercased: lower) }
        if copied == true { return true }
        let shown = lower ? lowercased(value) : value
        bytes.append(utf8: escaped ? HTMLText.text(shown) : shown)
        return false
    }

    /// Appends `value` when every byte of it is printable ASCII (space to `~`), lower-cased and with HTML's escapes
    /// as asked; false, with nothing appended, for any other value.
    private static func appendPrintableASCII(
        _ value: UnsafeBufferPointer<UInt8>, to bytes: inout ByteBuffer, escaped: Bool, lowercased lower: Bool
    ) -> Bool {
        // One pass says what the value holds; a value with nothing to escape or lower-case is copied whole (nearly
        // every one: IDs and profiles), the others byte by byte.
        var upper = false
        var special = false
        for byte in value {
            guard byte &- 0x20 < 0x5F else { return false }  // space to `~`
            upper = upper || (byte &- UInt8(ascii: "A")) < 26
            // `"`, `&`, `'`, `<` and `>` are all below 64: one bit each of `specials`.
            special = special || (byte < 64 && Self.specials >> UInt64(byte) & 1 != 0)
        }
        guard special && escaped else {
            if upper && lower {
                for byte in value { bytes.append((byte &- UInt8(ascii: "A")) < 26 ? byte | 0x20 : byte) }
            } else {
                bytes.append(value)
            }
            return true
        }
        for byte in value {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z") where lower: bytes.append(byte | 0x20)
            case UInt8(ascii: "&"): bytes.append("&amp;")
            case UInt8(ascii: "<"): bytes.append("&lt;")
            case UInt8(ascii: ">"): bytes.append("&gt;")
            case UInt8(ascii: "\""): bytes.append("&quot;")
            case UInt8(ascii: "'"): bytes.append("&#39;")
            default: bytes.append(byte)
            }
        }
        return true
    }

    /// The bytes HTML escapes (`"`, `&`, `'`, `<`, `>`), one bit each.
    private static let specials: UInt64 = 1 << 0x22 | 1 << 0x26 | 1 << 0x27 | 1 << 0x3C | 1 << 0x3E

    /// `text` lower-cased: byte by byte when it is ASCII (case IDs and requirement IDs, every row's), else as
    /// `lowercased()` does it.
    static func lowercased(_ text: String) -> String {
        guard text.utf8.allSatisfy({ $0 < 0x80 }) else { return text.lowercased() }
        guard text.utf8.contains(where: { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) else { return text }
        return String(decoding: text.utf8.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// Text symbols (no emoji: a page must read the same where no emoji font is installed), with the verdict's word.
    static func icon(_ verdict: Verdict) -> String {
        switch verdict {
        case .pass: "✓"
        case .info: "ℹ"
        case .warn: "⚠"
        case .skip: "»"
        case .fail: "✗"
        case .error: "‼"
        }
    }

    /// The end of a row's case cell and the start of its verdict cell, up to the verdict's icon and word: one piece of
    /// the suite's own text for each verdict (`icon` and the raw value, as every other cell spells them).
    static func verdictCell(_ verdict: Verdict) -> StaticString {
        switch verdict {
        case .pass: "</code></td><td class=\"tag pass\">✓ pass"
        case .info: "</code></td><td class=\"tag info\">ℹ info"
        case .warn: "</code></td><td class=\"tag warn\">⚠ warn"
        case .skip: "</code></td><td class=\"tag skip\">» skip"
        case .fail: "</code></td><td class=\"tag fail\">✗ fail"
        case .error: "</code></td><td class=\"tag error\">‼ error"
        }
    }

    /// `icon` of every verdict.
    static let verdictIcons = Dictionary(uniqueKeysWithValues: Verdict.allCases.map { ($0, icon($0)) })
}
