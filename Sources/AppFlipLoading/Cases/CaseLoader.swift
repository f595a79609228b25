import AppFlipBase
import AppFlipChecks
import AppFlipModel
import AppFlipSyntax
import Foundation

/// Reads `.case` files into validated cases, collecting every diagnostic before failing.
package struct CaseLoader {
    package static let fileExtension = "case"
    /// A file or table that expands past this many cases is refused.
    package static let maximumCases = 100_000

    let catalog: Catalog?
    /// Each loaded file's bytes, for the offending line under a diagnostic.
    private var sources: [String: [UInt8]] = [:]
    var reader: NodeReader
    /// In a table file whose checks hold no `${row.…}`, every row's checks read the same: they are read once (for the
    /// first row's profile) and reused, instead of once a row.
    private var sharedChecks: (profile: Profile?, groups: [CheckGroup]?, usesProjectID: Bool)?
    private var checksAreShared = false
    /// In a table file where no column changes what the steps are made of (`link`, `intent`, `steps`, the checks,
    /// `profile`, `repeat`), every row's steps are the same: they are read for the first row and shared by the rest,
    /// one array for the whole table (so the first row's location stands for the one-step case's step). A table of
    /// 20,000 rows is then 20,000 IDs and titles, not 20,000 copies of its steps.
    private var sharedSteps: (profile: Profile?, caseRepeat: Int, steps: [Step], usesProjectID: Bool)?
    private var stepsAreShared = false

    /// Every diagnostic found so far.
    package var diagnostics: [Diagnostic] { reader.diagnostics }

    /// - Parameter catalog: when given, every requirement a case names must exist there at the same level.
    package init(catalog: Catalog?) {
        self.catalog = catalog
        self.reader = NodeReader(lineText: { _ in "" })
    }

    // MARK: - One file

    /// The cases whose `${repeat}` expansion stays within the per-case bound; the others are diagnosed at their line.
    mutating func bounded(_ cases: [ConformanceCase]) -> [ConformanceCase] {
        cases.filter { conformanceCase in
            let bytes = conformanceCase.repeatedBytes
            guard bytes > ConformanceCase.maximumExpansion else { return true }
            reader.error(
                at: conformanceCase.location,
                "the case's ${repeat} variables expand to \(bytes) bytes over its sends; "
                    + "at most \(ConformanceCase.maximumExpansion) per case")
            return false
        }
    }

    /// Parses and validates one file's bytes; diagnostics accumulate in the loader.
    package mutating func load(bytes: [UInt8], file: String, group: String) -> [ConformanceCase] {
        sources[file] = bytes
        let table = sources
        reader = NodeReader(
            diagnostics: reader.diagnostics,
            lineText: { location in
                table[location.file].map { SourceLines.line(location.line, of: $0) } ?? ""
            })
        let node: Node
        do {
            node = try Parser.parse(bytes: bytes, file: file)
        } catch {
            reader.diagnostics += error.diagnostics
            return []
        }
        guard let document = reader.mapping(node, "a case file") else { return [] }
        let allowed = [
            "id", "title", "profile", "scenario", "requirement", "expect", "checks", "link", "intent", "steps", "skip", "table", "repeat",
            "needs", "formerly",
        ]
        guard reader.checkKeys(document, allowed: allowed, required: ["id", "title", "profile", "scenario"], in: "a case") else { return [] }
        if document["link"] == nil, document["intent"] == nil, document["steps"] == nil {
            reader.error(at: document.location, "a case needs 'link' or 'intent' (with its checks) or 'steps'")
            return []
        }

        guard let tableNode = document["table"] else {
            let location = document.entries.first { $0.key.text == "id" }?.key.location ?? document.location
            guard let converted = convert(document, location: location, group: group) else { return [] }
            return bounded([converted])
        }
        guard let rows = tableRows(tableNode) else { return [] }
        checksAreShared = !["requirement", "expect", "checks"].contains { document[$0].map(Self.mentionsRow) ?? false }
        sharedChecks = nil
        sharedSteps = nil
        defer {
            checksAreShared = false
            sharedChecks = nil
            stepsAreShared = false
            sharedSteps = nil
        }
        var cases: [ConformanceCase] = []
        let before = reader.diagnostics.count
        // Only the entries that name a column differ from row to row: the others are the same nodes in every row.
        let entries = document.entries.filter { $0.key.text != "table" }
        let varies = entries.map { Self.mentionsRow(.scalar($0.key)) || Self.mentionsRow($0.value) || Self.holdsTableKey($0.value) }
        let stepKeys: Set = ["link", "intent", "steps", "requirement", "expect", "checks", "profile", "repeat"]
        stepsAreShared = !zip(entries, varies).contains { entry, varies in varies && stepKeys.contains(entry.key.text) }
        for row in rows {
            var mapping = document
            mapping.entries = zip(entries, varies).map { entry, varies in
                varies
                    ? Node.Mapping.Entry(key: substitute(row: row.values, in: entry.key), value: substitute(row: row.values, in: entry.value))
                    : entry
            }
            if var converted = convert(mapping, location: row.location, group: group) {
                // Rows that differ only in their IDs share one box of members (the steps are shared already).
                if let previous = cases.last { converted.sharingMembers(with: previous) }
                cases += bounded([converted])
            }
            if reader.diagnostics.count > before { break }  // the same mistake would repeat for every row
        }
        return cases
    }

    // MARK: - Conversion

    private mutating func convert(_ document: Node.Mapping, location: SourceLocation, group: String) -> ConformanceCase? {
        let before = reader.diagnostics.count
        reader.usesProjectID = false
        guard let idNode = document["id"], let idScalar = reader.scalar(idNode, "'id'"),
            let titleNode = document["title"], let titleScalar = reader.scalar(titleNode, "'title'")
        else { return nil }
        if !Self.isValidCaseID(idScalar.text) {
            reader.error(at: idScalar.location, "case ID '\(idScalar.text)' must be segments of [A-Za-z0-9._-] separated by '/'")
        }
        // Blank: nothing but tabs and space separators (what Foundation's `.whitespaces` holds), read per scalar.
        if titleScalar.text.unicodeScalars.allSatisfy({ $0 == "\t" || $0.properties.generalCategory == .spaceSeparator }) {
            reader.error(at: titleScalar.location, "'title' is empty")
        }
        let profile = document["profile"].flatMap { reader.enumValue($0, "profile", as: Profile.self) }
        let scenario = document["scenario"].flatMap { reader.enumValue($0, "scenario", as: Scenario.self) }
        if scenario == .secondUser, let profile, profile.usesLinkHandler, let node = document["scenario"] {
            reader.error(
                at: node.location,
                "'second-user' is for HTTP steps (user: second-user); a link handler knows the scenarios "
                    + "consent, deny, cancel and disabled-account")
        }
        var caseRepeat = 1
        if let repeatNode = document["repeat"], let scalar = reader.scalar(repeatNode, "'repeat'") {
            if let count = Int(scalar.text), (1...100).contains(count) {
                caseRepeat = count
            } else {
                reader.error(at: scalar.location, "'repeat' of a case takes a count from 1 to 100 (the whole sequence of steps runs that often)")
            }
        }
        let steps: [Step]?
        if stepsAreShared, let shared = sharedSteps, shared.profile == profile, shared.caseRepeat == caseRepeat {
            steps = shared.steps
            // Read once for every row: what their templates use, each row uses.
            if shared.usesProjectID { reader.usesProjectID = true }
        } else {
            let usedBefore = reader.usesProjectID
            reader.usesProjectID = false
            steps = caseSteps(document, profile: profile, location: location, caseRepeat: caseRepeat)
            if stepsAreShared, let steps { sharedSteps = (profile, caseRepeat, steps, reader.usesProjectID) }
            reader.usesProjectID = usedBefore || reader.usesProjectID
        }
        var skip: String?
        if let skipNode = document["skip"], let scalar = reader.scalar(skipNode, "'skip'") {
            if scalar.text.isEmpty { reader.error(at: scalar.location, "'skip' needs a reason") }
            skip = scalar.text
        }
        var needs = self.needs(document)
        let formerly = self.formerly(document, id: idScalar.text)
        guard reader.diagnostics.count == before, let profile, let scenario, let steps else { return nil }
        var conformanceCase = ConformanceCase(
            id: idScalar.text, title: titleScalar.text, profile: profile, scenario: scenario,
            steps: steps, skipReason: skip, location: location, group: group, repeatCount: caseRepeat)
        // Google's redirect URI is built from the project's ID: a case that sends it (a template naming it, or an
        // authorization request or code exchange built on the valid parameters) cannot be judged without one.
        let sendsWebRedirect = conformanceCase.httpRequests.contains { request in
            [request.query, request.form].contains { recipe in
                guard let recipe, recipe.raw == nil, recipe.query == nil else { return false }
                return recipe.base == .authorize || recipe.base == .code
            }
        }
        if reader.usesProjectID || sendsWebRedirect, !needs.contains(.projectID) { needs.append(.projectID) }
        conformanceCase.needs = needs
        conformanceCase.formerly = formerly
        return conformanceCase
    }

    /// The case's steps: its `steps`, or one step of its `link` (or `intent`) and its checks.
    private mutating func caseSteps(_ document: Node.Mapping, profile: Profile?, location: SourceLocation, caseRepeat: Int) -> [Step]? {
        if let stepsNode = document["steps"] {
            for key in ["link", "intent", "requirement", "expect", "checks"] {
                if let other = document.entries.first(where: { $0.key.text == key }) {
                    reader.error(at: other.key.location, "'\(key)' belongs inside a step when a case has 'steps'")
                }
            }
            return parseSteps(stepsNode, profile: profile, caseRepeat: caseRepeat)
        }
        if profile == .nativeClient {
            reader.error(
                at: document.location,
                "a native-client case drives the app through 'steps' (sign_in, replay_redirect, unsolicited_redirect, refresh, call_api, sign_out)")
            return nil
        }
        return singleStep(document, profile: profile, location: location, caseRepeat: caseRepeat)
    }

    /// `needs:`: what the configuration must provide for the case to run.
    private mutating func needs(_ document: Node.Mapping) -> [ConformanceCase.Need] {
        var needs: [ConformanceCase.Need] = []
        if let needsNode = document["needs"], let values = reader.scalarList(needsNode, "'needs'") {
            for value in values {
                if let need = reader.enumValue(.scalar(value), "need", as: ConformanceCase.Need.self) { needs.append(need) }
            }
        }
        return needs
    }

    /// `formerly:`: the case's earlier IDs, each an ID and not its own.
    private mutating func formerly(_ document: Node.Mapping, id: String) -> [String] {
        var formerly: [String] = []
        if let formerlyNode = document["formerly"], let values = reader.scalarList(formerlyNode, "'formerly'") {
            for value in values {
                if Self.isValidCaseID(value.text), value.text != id {
                    formerly.append(value.text)
                } else {
                    reader.error(at: value.location, "'formerly' lists the case's earlier IDs; '\(value.text)' is not one")
                }
            }
        }
        return formerly
    }

    /// A case without `steps`: one step of its `link` (or `intent`) and its checks (shared by a table's rows).
    private mutating func singleStep(_ document: Node.Mapping, profile: Profile?, location: SourceLocation, caseRepeat: Int) -> [Step]? {
        let action: Step.Action?
        let sendsIntents = profile?.usesIntentSteps == true
        switch (sendsIntents, document["link"], document["intent"]) {
        case (true, nil, let intent?):
            action = intentRecipe(intent).map { .intent($0) }
        case (false, let link?, nil):
            action = linkRecipe(link, defaultBase: .appLink).map { .link($0) }
        default:
            reader.error(at: document.location, Profile.singleStepRefusal(sendsIntents: sendsIntents))
            action = nil
        }
        let checks: [CheckGroup]?
        if checksAreShared, let shared = sharedChecks, shared.profile == profile {
            checks = shared.groups
            // Parsed once for every row: what their templates use, each row uses.
            if shared.usesProjectID { reader.usesProjectID = true }
        } else {
            let usedBefore = reader.usesProjectID
            reader.usesProjectID = false
            checks = checkGroups(document, profile: profile)
            if checksAreShared { sharedChecks = (profile, checks, reader.usesProjectID) }
            reader.usesProjectID = usedBefore || reader.usesProjectID
        }
        let steps = action.flatMap { action in checks.map { [Step(action: action, checks: $0, location: location)] } }
        if let step = steps?.first { validate(step, capturedBefore: [], caseRepeat: caseRepeat) }
        return steps
    }

    package static func isValidCaseID(_ id: String) -> Bool {
        // On UTF-8 bytes: non-empty segments of [A-Za-z0-9._-] joined by single slashes.
        var segmentLength = 0
        for byte in id.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
                segmentLength += 1
            case UInt8(ascii: "/"):
                guard segmentLength > 0 else { return false }
                segmentLength = 0
            default:
                return false
            }
        }
        return segmentLength > 0
    }

    mutating func checkGroups(_ document: Node.Mapping, profile: Profile?) -> [CheckGroup]? {
        let short = document["requirement"] != nil || document["expect"] != nil
        if short, let checksNode = document["checks"] {
            reader.error(at: checksNode.location, "write either 'requirement' with 'expect', or 'checks', not both")
            return nil
        }
        if short {
            guard let requirementNode = document["requirement"] else {
                reader.error(at: document.location, "'expect' needs a 'requirement' (for example 'requirement: AF-LINK-005 MUST NOT')")
                return nil
            }
            guard let expectNode = document["expect"] else {
                reader.error(at: requirementNode.location, "'requirement' needs an 'expect' block")
                return nil
            }
            return checkGroup(requirement: requirementNode, expect: expectNode, profile: profile).map { [$0] }
        }
        guard let checksNode = document["checks"] else {
            reader.error(at: document.location, "a case needs 'requirement' with 'expect', or 'checks'")
            return nil
        }
        guard let list = reader.sequence(checksNode, "'checks'") else { return nil }
        if list.items.isEmpty { reader.error(at: list.location, "'checks' is empty") }
        var groups: [CheckGroup] = []
        for item in list.items {
            guard let mapping = reader.mapping(item, "a check"),
                reader.checkKeys(
                    mapping, allowed: ["requirement", "expect", "setup", "when_status"], required: ["requirement", "expect"], in: "a check"),
                let requirementNode = mapping["requirement"], let expectNode = mapping["expect"],
                var group = checkGroup(requirement: requirementNode, expect: expectNode, profile: profile)
            else { continue }
            if let setup = mapping["setup"] { group.isSetup = reader.keyword(setup, "setup", "true") }
            if let condition = mapping["when_status"] {
                group.condition = CheckRegistry.readStatusCondition(condition, reader: &reader)
                if let sample = group.expectation.checks.first(where: { $0.base.scope == .samples }), group.condition != nil {
                    reader.error(
                        at: group.location, "'\(sample.key)' judges values gathered over repetitions; a check with 'when_status' cannot use it")
                } else if let status = group.expectation.checks.first(where: { $0.base.traits.judgesStatus }), group.condition != nil {
                    reader.error(
                        at: group.location,
                        "a check with 'when_status' judges what such an answer carries, not '\(status.key)': judge the status in a check of its own")
                }
            }
            groups.append(group)
        }
        return groups
    }

    private mutating func checkGroup(requirement: Node, expect: Node, profile: Profile?) -> CheckGroup? {
        guard let scalar = reader.scalar(requirement, "'requirement'") else { return nil }
        guard let reference = RequirementReference(parsing: scalar.text) else {
            reader.error(
                at: scalar.location,
                "'requirement' must read 'ID LEVEL', for example 'AF-LINK-005 MUST NOT'; levels: \(Level.allCases.map(\.rawValue).joined(separator: ", "))"
            )
            return nil
        }
        if let catalog {
            if let known = catalog[reference.id] {
                if known.level != reference.level {
                    reader.error(at: scalar.location, "\(reference.id) is \(known.level.rawValue) in the catalog, not \(reference.level.rawValue)")
                }
                if let profile, !profile.checkableProfiles.map(\.rawValue).contains(known.profile) {
                    reader.error(
                        at: scalar.location,
                        "\(reference.id) belongs to profile '\(known.profile)'; a '\(profile.rawValue)' case can check requirements of: \(profile.checkableProfiles.map(\.rawValue).sorted().joined(separator: ", "))"
                    )
                }
            } else {
                let hint = Suggestion.closest(to: reference.id, among: catalog.requirements.map(\.id)).map { " (did you mean '\($0)'?)" } ?? ""
                reader.error(at: scalar.location, "unknown requirement '\(reference.id)'\(hint)")
            }
        }
        guard let expectation = expectation(expect) else { return nil }
        return CheckGroup(requirement: reference, expectation: expectation, location: scalar.location)
    }

    private mutating func expectation(_ node: Node) -> Expectation? {
        guard let mapping = reader.mapping(node, "'expect'") else { return nil }
        if let alternatives = mapping["one_of"] {
            guard reader.checkKeys(mapping, allowed: ["one_of"], in: "'expect' with 'one_of'") else { return nil }
            guard let list = reader.sequence(alternatives, "'one_of'") else { return nil }
            if list.items.count < 2 { reader.error(at: list.location, "'one_of' needs at least two alternatives") }
            var result: [[AnyCheck]] = []
            for item in list.items {
                guard let alternative = reader.mapping(item, "an alternative of 'one_of'") else { return nil }
                guard let checks = checks(alternative) else { return nil }
                result.append(checks)
            }
            return .oneOf(result)
        }
        return checks(mapping).map { .all($0) }
    }

    /// Reads every key of an `expect` block through the check registry.
    private mutating func checks(_ mapping: Node.Mapping) -> [AnyCheck]? {
        guard
            reader.checkKeys(
                mapping, allowed: CheckRegistry.keys + (mapping["one_of"] == nil ? ["one_of"] : []),
                in: "'expect'")
        else { return nil }
        if mapping.entries.isEmpty {
            reader.error(at: mapping.location, "'expect' has no expectations")
            return nil
        }
        var result: [AnyCheck] = []
        for entry in mapping.entries {
            guard entry.key.text != "one_of" else {
                reader.error(at: entry.key.location, "'one_of' cannot be nested")
                return nil
            }
            guard let read = CheckRegistry.read(key: entry.key.text, entry.value, reader: &reader) else { return nil }
            result += read
        }
        return result
    }

    mutating func checkUniqueIDs(_ cases: [ConformanceCase]) {
        var seen: [String: SourceLocation] = [:]
        for conformanceCase in cases {
            if let first = seen[conformanceCase.id] {
                reader.error(at: conformanceCase.location, "duplicate case ID '\(conformanceCase.id)' (first defined at \(first))")
            } else {
                seen[conformanceCase.id] = conformanceCase.location
            }
        }
        // An earlier ID names one case only, and never a case that has it now.
        var former: [String: SourceLocation] = [:]
        for conformanceCase in cases {
            for old in conformanceCase.formerly {
                if let current = seen[old] {
                    reader.error(at: conformanceCase.location, "'formerly' lists '\(old)', which is the ID of the case at \(current)")
                } else if let first = former[old] {
                    reader.error(at: conformanceCase.location, "'formerly' lists '\(old)', which the case at \(first) lists too")
                } else {
                    former[old] = conformanceCase.location
                }
            }
        }
    }
}
