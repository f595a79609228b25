import AppFlipDigest
import AppFlipSyntax
import Foundation

/// The cases of one run, with what a report needs to say where they came from.
public struct CaseSuite: Sendable {
    public var cases: [ConformanceCase]
    /// Case files read, relative paths as displayed, sorted.
    public var files: [String]
    /// SHA-256 over every case file's path and bytes, in path order.
    public var digest: String

    public init(cases: [ConformanceCase], files: [String], digest: String) {
        self.cases = cases
        self.files = files
        self.digest = digest
    }
}

/// Reads `.case` files into validated cases, collecting every diagnostic before failing.
public struct CaseLoader {
    public static let fileExtension = "case"
    /// A file or table that expands past this many cases is refused.
    public static let maximumCases = 100_000

    private let catalog: Catalog?
    private var sources: [String: [String]] = [:]
    var reader: NodeReader

    /// Every diagnostic found so far.
    public var diagnostics: [Diagnostic] { reader.diagnostics }

    /// - Parameter catalog: when given, every requirement a case names must exist there at the same level.
    public init(catalog: Catalog?) {
        self.catalog = catalog
        self.reader = NodeReader(lineText: { _ in "" })
    }

    /// Loads every `.case` file under `root` (or `root` itself when it is a file).
    /// - Parameters:
    ///   - root: a directory or one case file.
    ///   - groupRoot: the directory that groups are named relative to (normally `Conformance/cases`).
    public static func load(from root: String, groupRoot: String? = nil, catalog: Catalog?) throws(DiagnosticList) -> CaseSuite {
        let files: [String]
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory) else {
            throw DiagnosticList([Diagnostic(at: SourceLocation(file: root, line: 1, column: 1), "no such file or directory")])
        }
        if isDirectory.boolValue {
            files = caseFiles(under: root)
            if files.isEmpty {
                throw DiagnosticList([Diagnostic(at: SourceLocation(file: root, line: 1, column: 1),
                                                 "no .\(fileExtension) files under this directory")])
            }
        } else {
            files = [root]
        }
        var loader = CaseLoader(catalog: catalog)
        var cases: [ConformanceCase] = []
        var hasher = SHA256()
        let base = groupRoot ?? (isDirectory.boolValue ? root : (root as NSString).deletingLastPathComponent)
        for file in files {
            guard let data = FileManager.default.contents(atPath: file) else {
                loader.reader.error(at: SourceLocation(file: file, line: 1, column: 1), "cannot read the file")
                continue
            }
            let bytes = [UInt8](data)
            // Paths relative to the cases root, so the digest does not depend on where the checkout is.
            hasher.update(Array(relativePath(of: file, to: base).utf8) + [0])
            hasher.update(bytes)
            cases += loader.load(bytes: bytes, file: file, group: group(of: file, relativeTo: base))
            if cases.count > maximumCases {
                loader.reader.error(at: SourceLocation(file: file, line: 1, column: 1),
                                    "the case files expand into more than \(maximumCases) cases")
                break
            }
        }
        loader.checkUniqueIDs(cases)
        if !loader.reader.diagnostics.isEmpty { throw DiagnosticList(loader.reader.diagnostics) }
        let digest = hasher.finalize().map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        return CaseSuite(cases: cases, files: files, digest: digest)
    }

    static func caseFiles(under root: String) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { return [] }
        var files: [String] = []
        while let relative = enumerator.nextObject() as? String {
            if relative.hasSuffix("." + fileExtension) {
                files.append(root.hasSuffix("/") ? root + relative : root + "/" + relative)
            }
        }
        return files.sorted()
    }

    static func relativePath(of file: String, to base: String) -> String {
        let standardFile = (file as NSString).standardizingPath
        let standardBase = (base as NSString).standardizingPath
        return standardFile.hasPrefix(standardBase + "/") ? String(standardFile.dropFirst(standardBase.count + 1))
            : (standardFile as NSString).lastPathComponent
    }

    static func group(of file: String, relativeTo base: String) -> String {
        let directory = (file as NSString).deletingLastPathComponent
        let standardBase = (base as NSString).standardizingPath
        let standardDirectory = (directory as NSString).standardizingPath
        if standardDirectory == standardBase { return "(root)" }
        if standardDirectory.hasPrefix(standardBase + "/") {
            return String(standardDirectory.dropFirst(standardBase.count + 1))
        }
        return standardDirectory
    }

    // MARK: - One file

    /// Parses and validates one file's bytes; diagnostics accumulate in the loader.
    public mutating func load(bytes: [UInt8], file: String, group: String) -> [ConformanceCase] {
        sources[file] = SourceLines.split(String(decoding: bytes, as: UTF8.self))
        let table = sources
        reader = NodeReader(diagnostics: reader.diagnostics, lineText: { location in
            guard let fileLines = table[location.file], location.line >= 1, location.line <= fileLines.count else { return "" }
            return fileLines[location.line - 1]
        })
        let node: Node
        do {
            node = try Parser.parse(bytes: bytes, file: file)
        } catch {
            reader.diagnostics += error.diagnostics
            return []
        }
        guard let document = reader.mapping(node, "a case file") else { return [] }
        let allowed = ["id", "title", "profile", "scenario", "requirement", "expect", "checks", "link", "steps", "skip", "table"]
        guard reader.checkKeys(document, allowed: allowed, required: ["id", "title", "profile", "scenario"], in: "a case") else { return [] }
        if document["link"] == nil, document["steps"] == nil {
            reader.error(at: document.location, "a case needs 'link' (with its checks) or 'steps'")
            return []
        }

        guard let tableNode = document["table"] else {
            let location = document.entries.first { $0.key.text == "id" }?.key.location ?? document.location
            return convert(document, location: location, group: group).map { [$0] } ?? []
        }
        guard let rows = tableRows(tableNode) else { return [] }
        var cases: [ConformanceCase] = []
        let before = reader.diagnostics.count
        for row in rows {
            let expanded = substitute(row: row.values, in: .mapping(document))
            guard case .mapping(let mapping) = expanded else { continue }
            if let converted = convert(mapping, location: row.location, group: group) { cases.append(converted) }
            if reader.diagnostics.count > before { break }  // the same mistake would repeat for every row
        }
        return cases
    }

    private struct Row {
        var values: [String: String]
        var location: SourceLocation
    }

    /// Reads `table:`: the name of a built-in table, or a list of rows (mappings of column to value).
    private mutating func tableRows(_ node: Node) -> [Row]? {
        if case .scalar(let scalar) = node {
            guard scalar.text == "allowed_flip_uris" else {
                reader.error(at: scalar.location, "unknown built-in table '\(scalar.text)'; the built-in table is 'allowed_flip_uris' (columns: key, uri), or write the rows as a list")
                return nil
            }
            return AllowedFlipURIs.all.map { Row(values: ["key": AllowedFlipURIs.key(for: $0), "uri": $0], location: scalar.location) }
        }
        guard let sequence = reader.sequence(node, "'table'") else { return nil }
        guard !sequence.items.isEmpty else {
            reader.error(at: sequence.location, "'table' has no rows")
            return nil
        }
        guard sequence.items.count <= Self.maximumCases else {
            reader.error(at: sequence.location, "'table' has \(sequence.items.count) rows; the limit is \(Self.maximumCases)")
            return nil
        }
        var rows: [Row] = []
        var columns: [String]?
        for item in sequence.items {
            guard let mapping = reader.mapping(item, "a table row") else { return nil }
            var values: [String: String] = [:]
            for entry in mapping.entries {
                guard let scalar = reader.scalar(entry.value, "table cell '\(entry.key.text)'") else { return nil }
                values[entry.key.text] = scalar.text
            }
            let names = mapping.entries.map(\.key.text)
            if let columns, Set(columns) != Set(names) {
                reader.error(at: mapping.location, "this row's columns (\(names.joined(separator: ", "))) differ from the first row's (\(columns.joined(separator: ", ")))")
                return nil
            }
            columns = names
            rows.append(Row(values: values, location: mapping.location))
        }
        return rows
    }

    /// Replaces `${row.NAME}` in every key and scalar; unknown columns become diagnostics.
    private mutating func substitute(row: [String: String], in node: Node) -> Node {
        switch node {
        case .scalar(let scalar):
            return .scalar(substitute(row: row, in: scalar))
        case .sequence(var sequence):
            sequence.items = sequence.items.map { substitute(row: row, in: $0) }
            return .sequence(sequence)
        case .mapping(var mapping):
            mapping.entries = mapping.entries.compactMap { entry in
                if entry.key.text == "table" { return nil }
                return Node.Mapping.Entry(key: substitute(row: row, in: entry.key), value: substitute(row: row, in: entry.value))
            }
            return .mapping(mapping)
        }
    }

    private mutating func substitute(row: [String: String], in scalar: Node.Scalar) -> Node.Scalar {
        guard scalar.text.contains("${row.") else { return scalar }
        var result = ""
        var rest = Substring(scalar.text)
        while let start = rest.range(of: "${row.") {
            result += rest[..<start.lowerBound]
            guard let close = rest[start.upperBound...].firstIndex(of: "}") else {
                result += rest[start.lowerBound...]
                rest = ""
                break
            }
            let name = String(rest[start.upperBound..<close])
            if let value = row[name] {
                result += value
            } else {
                let hint = Suggestion.closest(to: name, among: Array(row.keys)).map { " (did you mean '${row.\($0)}'?)" } ?? ""
                reader.error(at: scalar.location, "the table has no column '\(name)'\(hint); columns: \(row.keys.sorted().joined(separator: ", "))")
            }
            rest = rest[rest.index(after: close)...]
        }
        result += rest
        var copy = scalar
        copy.text = result
        return copy
    }

    // MARK: - Conversion

    private mutating func convert(_ document: Node.Mapping, location: SourceLocation, group: String) -> ConformanceCase? {
        let before = reader.diagnostics.count
        guard let idNode = document["id"], let idScalar = reader.scalar(idNode, "'id'"),
              let titleNode = document["title"], let titleScalar = reader.scalar(titleNode, "'title'") else { return nil }
        if !Self.isValidCaseID(idScalar.text) {
            reader.error(at: idScalar.location, "case ID '\(idScalar.text)' must be segments of [A-Za-z0-9._-] separated by '/'")
        }
        if titleScalar.text.trimmingCharacters(in: .whitespaces).isEmpty {
            reader.error(at: titleScalar.location, "'title' is empty")
        }
        let profile = document["profile"].flatMap { reader.enumValue($0, "profile", as: Profile.self) }
        let scenario = document["scenario"].flatMap { reader.enumValue($0, "scenario", as: Scenario.self) }
        let steps: [Step]?
        if let stepsNode = document["steps"] {
            for key in ["link", "requirement", "expect", "checks"] {
                if let other = document.entries.first(where: { $0.key.text == key }) {
                    reader.error(at: other.key.location, "'\(key)' belongs inside a step when a case has 'steps'")
                }
            }
            steps = parseSteps(stepsNode, profile: profile)
        } else {
            let link = document["link"].flatMap { linkRecipe($0, defaultBase: .appLink) }
            let checks = checkGroups(document, profile: profile)
            steps = link.flatMap { link in checks.map { [Step(action: .link(link), checks: $0, location: location)] } }
            if let step = steps?.first { validate(step, capturedBefore: []) }
        }
        var skip: String?
        if let skipNode = document["skip"], let scalar = reader.scalar(skipNode, "'skip'") {
            if scalar.text.isEmpty { reader.error(at: scalar.location, "'skip' needs a reason") }
            skip = scalar.text
        }
        guard reader.diagnostics.count == before, let profile, let scenario, let steps else { return nil }
        return ConformanceCase(id: idScalar.text, title: titleScalar.text, profile: profile, scenario: scenario,
                               steps: steps, skipReason: skip, location: location, group: group)
    }

    static func isValidCaseID(_ id: String) -> Bool {
        let segments = id.split(separator: "/", omittingEmptySubsequences: false)
        return !segments.isEmpty && segments.allSatisfy { segment in
            !segment.isEmpty && segment.allSatisfy { character in
                character.isASCII && (character.isLetter || character.isNumber || "._-".contains(character))
            }
        }
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
                  reader.checkKeys(mapping, allowed: ["requirement", "expect"], required: ["requirement", "expect"], in: "a check"),
                  let requirementNode = mapping["requirement"], let expectNode = mapping["expect"],
                  let group = checkGroup(requirement: requirementNode, expect: expectNode, profile: profile) else { continue }
            groups.append(group)
        }
        return groups
    }

    private mutating func checkGroup(requirement: Node, expect: Node, profile: Profile?) -> CheckGroup? {
        guard let scalar = reader.scalar(requirement, "'requirement'") else { return nil }
        guard let reference = RequirementReference(parsing: scalar.text) else {
            reader.error(at: scalar.location, "'requirement' must read 'ID LEVEL', for example 'AF-LINK-005 MUST NOT'; levels: \(Level.allCases.map(\.rawValue).joined(separator: ", "))")
            return nil
        }
        if let catalog {
            if let known = catalog[reference.id] {
                if known.level != reference.level {
                    reader.error(at: scalar.location, "\(reference.id) is \(known.level.rawValue) in the catalog, not \(reference.level.rawValue)")
                }
                if let profile, !profile.checkableProfiles.map(\.rawValue).contains(known.profile) {
                    reader.error(at: scalar.location, "\(reference.id) belongs to profile '\(known.profile)'; a '\(profile.rawValue)' case can check requirements of: \(profile.checkableProfiles.map(\.rawValue).sorted().joined(separator: ", "))")
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
        guard reader.checkKeys(mapping, allowed: CheckRegistry.keys + (mapping["one_of"] == nil ? ["one_of"] : []),
                               in: "'expect'") else { return nil }
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

    mutating func linkRecipe(_ node: Node, defaultBase: ParameterBase, what: String = "'link'") -> LinkRecipe? {
        if case .scalar(let scalar) = node {
            guard scalar.text == "base" else {
                reader.error(at: scalar.location, "\(what) is 'base' (the valid parameters) or a block of edits")
                return nil
            }
            return .base(defaultBase)
        }
        guard let mapping = reader.mapping(node, what) else { return nil }
        let allowed = ["base", "set", "set_raw", "remove", "append", "append_raw", "order", "query", "fragment", "raw"]
        guard reader.checkKeys(mapping, allowed: allowed, in: what) else { return nil }
        var recipe = LinkRecipe.base(defaultBase)
        if let baseNode = mapping["base"] {
            if let base = reader.enumValue(baseNode, "parameter base", as: ParameterBase.self) { recipe.base = base }
        }
        let before = reader.diagnostics.count
        if let raw = mapping["raw"] {
            if mapping.entries.count > 1 {
                reader.error(at: raw.location, "'raw' gives the whole link; it cannot be combined with other edits")
            }
            recipe.raw = reader.scalar(raw, "'raw'").flatMap { linkTemplate($0) }
        }
        if let query = mapping["query"] {
            for other in ["set", "set_raw", "remove", "append", "append_raw", "order"] where mapping[other] != nil {
                reader.error(at: query.location, "'query' gives the exact query; it cannot be combined with '\(other)'")
            }
            recipe.query = reader.scalar(query, "'query'").flatMap { linkTemplate($0) }
        }
        if let fragment = mapping["fragment"] {
            recipe.fragment = reader.scalar(fragment, "'fragment'").flatMap { linkTemplate($0) }
        }
        if let remove = mapping["remove"] {
            recipe.remove = reader.scalarList(remove, "'remove'")?.map(\.text) ?? []
        }
        if let order = mapping["order"] {
            recipe.order = reader.scalarList(order, "'order'")?.map(\.text) ?? []
        }
        recipe.set = parameters(mapping["set"], "set", raw: false) + parameters(mapping["set_raw"], "set_raw", raw: true)
        recipe.append = appended(mapping["append"], "append", raw: false) + appended(mapping["append_raw"], "append_raw", raw: true)
        return reader.diagnostics.count == before ? recipe : nil
    }

    /// A template used to build the link: it cannot refer to the link itself.
    private mutating func linkTemplate(_ scalar: Node.Scalar) -> Template? {
        guard let template = reader.template(scalar) else { return nil }
        if template.refersToSentLink {
            reader.error(at: scalar.location, "'${sent.…}' refers to the link that was sent; it can be used in 'expect', not in 'link'")
            return nil
        }
        return template
    }

    /// `set: {name: value, …}`.
    private mutating func parameters(_ node: Node?, _ what: String, raw: Bool) -> [LinkRecipe.Parameter] {
        guard let node, let mapping = reader.mapping(node, "'\(what)'") else { return [] }
        return mapping.entries.compactMap { entry in
            guard let scalar = reader.scalar(entry.value, "the value of '\(entry.key.text)'"),
                  let template = linkTemplate(scalar) else { return nil }
            return LinkRecipe.Parameter(name: entry.key.text, value: template, isRaw: raw)
        }
    }

    /// `append: [{name: value}, …]`: a list, because a name may repeat.
    private mutating func appended(_ node: Node?, _ what: String, raw: Bool) -> [LinkRecipe.Parameter] {
        guard let node, let list = reader.sequence(node, "'\(what)'") else { return [] }
        var result: [LinkRecipe.Parameter] = []
        for item in list.items {
            guard let mapping = reader.mapping(item, "an item of '\(what)' (write '- name: value')") else { continue }
            result += parameters(.mapping(mapping), what, raw: raw)
        }
        return result
    }

    private mutating func checkUniqueIDs(_ cases: [ConformanceCase]) {
        var seen: [String: SourceLocation] = [:]
        for conformanceCase in cases {
            if let first = seen[conformanceCase.id] {
                reader.error(at: conformanceCase.location, "duplicate case ID '\(conformanceCase.id)' (first defined at \(first))")
            } else {
                seen[conformanceCase.id] = conformanceCase.location
            }
        }
    }
}
