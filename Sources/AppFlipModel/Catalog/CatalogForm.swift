/// A requirement catalog as loaded, written as text that reads back in one pass: how the built-in catalog is
/// compiled in (suite-embedder parses `Conformance/requirements.catalog` while building and embeds this form beside
/// the file's bytes), so a run neither parses nor checks the built-in catalog again.
///
/// The form is a sequence of fields: a text is its UTF-8 length in decimal, a `:` and its bytes; a missing optional
/// text is `-`; a list is its count in decimal and a `;`, then its elements. It is read only from this build's own
/// embedded files, never from a file a person gives: a form that does not read back whole is no catalog (nil), and
/// the caller parses the file instead.
package enum CatalogForm {
    /// The form's first field, which names the layout: a build whose reader expects another parses the file.
    static let layout = "appflip-catalog-form-1"

    /// `catalog` in this form (its requirements, sources and programs; not its file, which the caller keeps).
    package static func encode(_ catalog: Catalog) -> String {
        var writer = Writer()
        writer.text(layout)
        writer.count(catalog.requirements.count)
        for requirement in catalog.requirements {
            writer.text(requirement.id)
            writer.text(requirement.level.rawValue)
            writer.text(requirement.profile)
            writer.text(requirement.title)
            writer.text(requirement.statement)
            writer.count(requirement.citations.count)
            for citation in requirement.citations { writer.citation(citation) }
            writer.optional(requirement.decision)
            writer.optional(requirement.notObservable)
            writer.optional(requirement.planned)
            writer.optional(requirement.judgedBySuite)
            writer.optional(requirement.appliesWhen)
            if let quote = requirement.quote {
                writer.count(1)
                writer.citation(quote.citation)
                writer.text(quote.text)
            } else {
                writer.count(0)
            }
        }
        // Sources in key order: the same catalog gives the same form.
        let sources = catalog.sources.values.sorted { $0.key < $1.key }
        writer.count(sources.count)
        for source in sources {
            writer.text(source.key)
            writer.text(source.title)
            writer.text(source.url)
        }
        writer.count(catalog.programs.count)
        for program in catalog.programs {
            writer.text(program.key)
            writer.text(program.title)
            writer.count(program.profiles.count)
            for profile in program.profiles { writer.text(profile.rawValue) }
            writer.text(program.covers)
            writer.count(program.leavesOut.count)
            for pattern in program.leavesOut { writer.text(pattern) }
            writer.optional(program.leavesOutWhy)
            writer.count(program.needs.count)
            for need in program.needs { writer.text(need.key) }
        }
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// The catalog `form` holds (without a file), or nil when it does not read back whole.
    package static func decode(_ form: String) -> Catalog? {
        var form = form
        return form.withUTF8 { bytes in
            var reader = Reader(bytes: bytes)
            guard reader.text() == layout, let requirementCount = reader.count() else { return nil }
            var requirements: [Requirement] = []
            requirements.reserveCapacity(requirementCount)
            for _ in 0..<requirementCount {
                guard let id = reader.text(), let level = reader.text().flatMap(Level.init(rawValue:)), let profile = reader.text(),
                    let title = reader.text(), let statement = reader.text(), let citations = reader.list({ $0.citation() }),
                    let decision = reader.optional(), let notObservable = reader.optional(), let planned = reader.optional(),
                    let judgedBySuite = reader.optional(), let appliesWhen = reader.optional(), let quoteCount = reader.count(), quoteCount <= 1
                else { return nil }
                var quote: SourceQuote?
                if quoteCount == 1 {
                    guard let citation = reader.citation(), let text = reader.text() else { return nil }
                    quote = SourceQuote(citation: citation, collapsed: text)
                }
                var requirement = Requirement(
                    id: id, level: level, profile: profile, title: title, statement: statement, citations: citations, decision: decision,
                    notObservable: notObservable, planned: planned, quote: quote)
                requirement.judgedBySuite = judgedBySuite
                requirement.appliesWhen = appliesWhen
                requirements.append(requirement)
            }
            guard
                let sources = reader.list({ (reader: inout Reader) -> SourceDocument? in
                    guard let key = reader.text(), let title = reader.text(), let url = reader.text() else { return nil }
                    return SourceDocument(key: key, title: title, url: url)
                }),
                let programs = reader.list({ (reader: inout Reader) -> CertificationProgram? in
                    guard let key = reader.text(), let title = reader.text(),
                        let profiles = reader.list({ $0.text().flatMap(Profile.init(rawValue:)) }), let covers = reader.text(),
                        let leavesOut = reader.list({ $0.text() }), let leavesOutWhy = reader.optional(),
                        let needs = reader.list({ $0.text().flatMap(ProgramNeed.init(key:)) })
                    else { return nil }
                    return CertificationProgram(
                        key: key, title: title, profiles: profiles, covers: covers, leavesOut: leavesOut, leavesOutWhy: leavesOutWhy, needs: needs)
                }),
                reader.isAtEnd
            else { return nil }
            var catalog = Catalog(requirements: requirements, sources: sources)
            catalog.programs = programs
            return catalog
        }
    }

    private struct Writer {
        var bytes: [UInt8] = []

        mutating func text(_ text: String) {
            bytes += String(text.utf8.count).utf8
            bytes.append(UInt8(ascii: ":"))
            bytes += text.utf8
        }

        mutating func optional(_ text: String?) {
            if let text { self.text(text) } else { bytes.append(UInt8(ascii: "-")) }
        }

        mutating func count(_ count: Int) {
            bytes += String(count).utf8
            bytes.append(UInt8(ascii: ";"))
        }

        mutating func citation(_ citation: Citation) {
            text(citation.sourceKey)
            text(citation.section)
        }
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        var isAtEnd: Bool { index == bytes.count }

        /// A decimal number ended by `end`, at most nine digits.
        private mutating func number(endedBy end: UInt8) -> Int? {
            var value = 0
            var digits = 0
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]), digits < 9 {
                value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                index += 1
                digits += 1
            }
            guard digits > 0, index < bytes.count, bytes[index] == end else { return nil }
            index += 1
            return value
        }

        mutating func text() -> String? {
            guard let length = number(endedBy: UInt8(ascii: ":")), bytes.count - index >= length else { return nil }
            defer { index += length }
            return String(validating: UnsafeBufferPointer(rebasing: bytes[index..<index + length]), as: UTF8.self)
        }

        mutating func optional() -> String?? {
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") {
                index += 1
                return .some(nil)
            }
            return text().map { .some($0) }
        }

        mutating func count() -> Int? { number(endedBy: UInt8(ascii: ";")) }

        mutating func citation() -> Citation? {
            guard let key = text(), let section = text() else { return nil }
            return Citation(sourceKey: key, section: section)
        }

        /// A counted list whose every element reads; nil when one does not.
        mutating func list<Element>(_ element: (inout Reader) -> Element?) -> [Element]? {
            guard let count = count(), count <= bytes.count - index else { return nil }
            var elements: [Element] = []
            elements.reserveCapacity(count)
            for _ in 0..<count {
                guard let next = element(&self) else { return nil }
                elements.append(next)
            }
            return elements
        }
    }
}
