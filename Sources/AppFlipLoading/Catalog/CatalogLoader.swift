import AppFlipBase
import AppFlipChecks
import AppFlipModel
import AppFlipSyntax
import Foundation

/// Reads the requirement catalog (`Conformance/requirements.catalog`), written in the case-file syntax.
///
/// ```
/// sources:
///   - key: RFC6749
///     title: The OAuth 2.0 Authorization Framework
///     url: https://www.rfc-editor.org/rfc/rfc6749
/// requirements:
///   - id: AF-LINK-004
///     level: MUST
///     profile: app-link
///     title: …
///     statement: …
///     sources: ["RFC6749 §3.1.2.3", "AF-iOS Modify your iOS app, step 3"]
///     decision: …          # optional: how a conflict between sources was resolved
///     not_observable: …    # optional: why the profile's contract cannot observe it
///     judged_by_suite: …   # optional: the requests the suite judges it on by itself, with no case naming it
///     quote:               # optional: the sentence it rests on, from one of its sources
///       source: RFC6749 §3.1.2.3
///       text: |
///         When a redirection URI is included in an authorization request, …
/// programs:                # optional: what a certification can cover
///   - key: app-flip-ios
///     title: App Flip for iOS
///     profiles: [app-link, site-association, flip, authorize, token]
///     leaves_out: ["NAT-AS-*"]     # optional, with leaves_out_why: requirements of those profiles it does not need
///     needs: [endpoints.api, sign_in.consent, code_lifetime]   # optional: what a configuration must give (`ProgramNeed`)
///     covers: …
/// ```
package enum CatalogLoader {
    package static func load(path: String) throws(DiagnosticList) -> Catalog {
        try load(bytes: BoundedFile.readSyntaxFile(path, what: "the requirement catalog"), file: path)
    }

    package static func load(bytes: [UInt8], file: String) throws(DiagnosticList) -> Catalog {
        let node = try Parser.parse(bytes: bytes, file: file)
        var reader = NodeReader(document: bytes)
        var sources: [SourceDocument] = []
        var requirements: [Requirement] = []
        var programs: [CertificationProgram] = []
        if let document = reader.mapping(node, "the catalog"),
            reader.checkKeys(document, allowed: ["sources", "requirements", "programs"], required: ["sources", "requirements"], in: "the catalog")
        {
            if let list = document["sources"].flatMap({ reader.sequence($0, "'sources'") }) {
                for item in list.items {
                    guard let mapping = reader.mapping(item, "a source"),
                        reader.checkKeys(mapping, allowed: ["key", "title", "url"], required: ["key", "title", "url"], in: "a source"),
                        let key = mapping["key"].flatMap({ reader.scalar($0, "'key'") }),
                        let title = mapping["title"].flatMap({ reader.scalar($0, "'title'") }),
                        let url = mapping["url"].flatMap({ reader.scalar($0, "'url'") })
                    else { continue }
                    if sources.contains(where: { $0.key == key.text }) {
                        reader.error(at: key.location, "duplicate source key '\(key.text)'")
                    }
                    sources.append(SourceDocument(key: key.text, title: title.text, url: url.text))
                }
            }
            let sourceKeys = sources.map(\.key)
            if let list = document["requirements"].flatMap({ reader.sequence($0, "'requirements'") }) {
                for item in list.items {
                    guard let requirement = requirement(item, sourceKeys: sourceKeys, reader: &reader) else { continue }
                    if requirements.contains(where: { $0.id == requirement.id }) {
                        reader.error(at: item.location, "duplicate requirement ID '\(requirement.id)'")
                    }
                    requirements.append(requirement)
                }
            }
            if let list = document["programs"].flatMap({ reader.sequence($0, "'programs'") }) {
                for item in list.items {
                    guard let program = program(item, reader: &reader) else { continue }
                    for pattern in program.leavesOut
                    where !requirements.contains(where: { program.profiles.map(\.rawValue).contains($0.profile) && Glob.matches(pattern, $0.id) }) {
                        reader.error(
                            at: item.location, "program '\(program.key)' leaves out '\(pattern)', which names no requirement of its profiles")
                    }
                    if programs.contains(where: { $0.key == program.key }) {
                        reader.error(at: item.location, "duplicate program key '\(program.key)'")
                    }
                    programs.append(program)
                }
            }
        }
        if !reader.diagnostics.isEmpty { throw DiagnosticList(reader.diagnostics) }
        var catalog = Catalog(requirements: requirements, sources: sources)
        catalog.programs = programs
        catalog.file = SuiteFile(path: file, bytes: bytes)
        return catalog
    }

    private static func requirement(_ node: Node, sourceKeys: [String], reader: inout NodeReader) -> Requirement? {
        let allowed = [
            "id", "level", "profile", "title", "statement", "sources", "decision", "not_observable", "planned", "judged_by_suite", "applies_when",
            "quote",
        ]
        guard let mapping = reader.mapping(node, "a requirement"),
            reader.checkKeys(
                mapping, allowed: allowed, required: ["id", "level", "profile", "title", "statement", "sources"],
                in: "a requirement"),
            let id = mapping["id"].flatMap({ reader.scalar($0, "'id'") }),
            let level = mapping["level"].flatMap({ reader.enumValue($0, "level", as: Level.self) }),
            let profile = mapping["profile"].flatMap({ Self.profile($0, planned: mapping["planned"] != nil, reader: &reader) }),
            let title = mapping["title"].flatMap({ reader.scalar($0, "'title'") }),
            let statement = mapping["statement"].flatMap({ reader.scalar($0, "'statement'") }),
            let citations = mapping["sources"].flatMap({ reader.scalarList($0, "'sources'") })
        else { return nil }
        guard RequirementReference.isWellFormedID(id.text) else {
            reader.error(at: id.location, "requirement ID '\(id.text)' must be upper-case words and digits joined by '-'")
            return nil
        }
        var parsed: [Citation] = []
        for citation in citations {
            let key = String(citation.text.prefix { $0 != " " })
            guard sourceKeys.contains(key) else {
                let hint = Suggestion.closest(to: key, among: sourceKeys).map { " (did you mean '\($0)'?)" } ?? ""
                reader.error(at: citation.location, "citation must start with a source key; '\(key)' is not one\(hint)")
                continue
            }
            parsed.append(Citation(sourceKey: key, section: String(citation.text.dropFirst(key.count)).trimmingSpaces()))
        }
        let decision = mapping["decision"].flatMap { reader.scalar($0, "'decision'") }?.text.trimmingSpacesAndNewlines()
        let notObservable = mapping["not_observable"].flatMap { reader.scalar($0, "'not_observable'") }?.text
            .trimmingSpacesAndNewlines()
        let planned = mapping["planned"].flatMap { reader.scalar($0, "'planned'") }?.text.trimmingSpacesAndNewlines()
        if planned != nil, notObservable != nil, let node = mapping["planned"] {
            reader.error(at: node.location, "a requirement is either 'planned' or 'not_observable', not both")
        }
        var requirement = Requirement(
            id: id.text, level: level, profile: profile, title: title.text,
            statement: statement.text.trimmingSpacesAndNewlines(),
            citations: parsed, decision: decision, notObservable: notObservable, planned: planned)
        requirement.judgedBySuite = mapping["judged_by_suite"].flatMap { reader.scalar($0, "'judged_by_suite'") }?.text
            .trimmingSpacesAndNewlines()
        requirement.appliesWhen = mapping["applies_when"].flatMap { reader.scalar($0, "'applies_when'") }?.text
            .trimmingSpacesAndNewlines()
        requirement.quote = mapping["quote"].flatMap { quote($0, citations: citations, parsed: parsed, reader: &reader) }
        return requirement
    }

    /// A program: `key` (lower-case words joined by '-'), `title`, `profiles` (each a profile the suite runs, once)
    /// and `covers`.
    private static func program(_ node: Node, reader: inout NodeReader) -> CertificationProgram? {
        guard let mapping = reader.mapping(node, "a program"),
            reader.checkKeys(
                mapping, allowed: ["key", "title", "profiles", "covers", "leaves_out", "leaves_out_why", "needs"],
                required: ["key", "title", "profiles", "covers"],
                in: "a program"),
            let key = mapping["key"].flatMap({ reader.scalar($0, "'key'") }),
            let title = mapping["title"].flatMap({ reader.scalar($0, "'title'") }),
            let names = mapping["profiles"].flatMap({ reader.scalarList($0, "'profiles'") }),
            let covers = mapping["covers"].flatMap({ reader.scalar($0, "'covers'") })
        else { return nil }
        guard !key.text.isEmpty, key.text.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }) else {
            reader.error(at: key.location, "a program key is lower-case letters, digits and '-', not '\(key.text)'")
            return nil
        }
        var profiles: [Profile] = []
        for name in names {
            guard let profile = Profile(rawValue: name.text) else {
                let hint = Suggestion.closest(to: name.text, among: Profile.allCases.map(\.rawValue)).map { " (did you mean '\($0)'?)" } ?? ""
                reader.error(at: name.location, "'\(name.text)' is not a profile\(hint)")
                continue
            }
            if profiles.contains(profile) { reader.error(at: name.location, "profile '\(name.text)' is listed twice") }
            profiles.append(profile)
        }
        guard !names.isEmpty else {
            reader.error(at: key.location, "program '\(key.text)' needs at least one profile")
            return nil
        }
        let leavesOut = mapping["leaves_out"].flatMap { reader.scalarList($0, "'leaves_out'") }?.map(\.text) ?? []
        let why = mapping["leaves_out_why"].flatMap { reader.scalar($0, "'leaves_out_why'") }?.text.trimmingSpacesAndNewlines()
        if !leavesOut.isEmpty, why == nil {
            reader.error(at: key.location, "program '\(key.text)' leaves requirements out; say why in 'leaves_out_why'")
        }
        var needs: [ProgramNeed] = []
        for name in mapping["needs"].flatMap({ reader.scalarList($0, "'needs'") }) ?? [] {
            guard let need = ProgramNeed(key: name.text) else {
                let hint = Suggestion.closest(to: name.text, among: ProgramNeed.keys).map { " (did you mean '\($0)'?)" } ?? ""
                reader.error(
                    at: name.location,
                    "'\(name.text)' is not something a configuration gives\(hint); a program needs one of \(ProgramNeed.keys.joined(separator: ", "))"
                )
                continue
            }
            if needs.contains(need) { reader.error(at: name.location, "need '\(name.text)' is listed twice") }
            needs.append(need)
        }
        return CertificationProgram(
            key: key.text, title: title.text, profiles: profiles,
            covers: covers.text.trimmingSpacesAndNewlines(), leavesOut: leavesOut, leavesOutWhy: why,
            needs: needs)
    }

    /// `quote:` with `source:` (one of the requirement's own citations, as written there) and `text:`.
    private static func quote(_ node: Node, citations: [Node.Scalar], parsed: [Citation], reader: inout NodeReader) -> SourceQuote? {
        guard let mapping = reader.mapping(node, "'quote'"),
            reader.checkKeys(mapping, allowed: ["source", "text"], required: ["source", "text"], in: "a quote"),
            let source = mapping["source"].flatMap({ reader.scalar($0, "'source'") }),
            let text = mapping["text"].flatMap({ reader.scalar($0, "'text'") })
        else { return nil }
        guard let citation = parsed.first(where: { $0.description == source.text }) else {
            let hint = Suggestion.closest(to: source.text, among: citations.map(\.text)).map { " (did you mean '\($0)'?)" } ?? ""
            reader.error(at: source.location, "a quote's source must be one of the requirement's own sources\(hint)")
            return nil
        }
        let quote = SourceQuote(citation: citation, text: text.text)
        guard !quote.text.isEmpty else {
            reader.error(at: text.location, "a quote needs the words it quotes")
            return nil
        }
        return quote
    }

    /// A profile the suite runs, or, for a `planned` requirement, one still to come (none today).
    private static func profile(_ node: Node, planned: Bool, reader: inout NodeReader) -> String? {
        if planned, case .scalar(let scalar) = node, Profile.plannedNames.contains(scalar.text) { return scalar.text }
        return reader.enumValue(node, "profile", as: Profile.self)?.rawValue
    }
}
