import AppFlipTestSupport
import Foundation
import Testing

/// The package's layers, as CONTRIBUTING ("Layers") draws them: every arrow in its block is a dependency Package.swift
/// declares and every declared dependency is an arrow (so the compiler, which refuses an undeclared import, holds the
/// drawing); the block is in layer order, each target depending only on those above it; the report writers see results
/// only; no target holds more than a fifth of the source lines, and no function more than 80 lines; and shared mutable
/// state has one lock.
@Suite("Layers")
struct LayerTests {
    /// One line of the drawing: a target and the targets it depends on.
    struct Arrow: Equatable {
        var target: String
        var dependencies: [String]
    }

    /// The arrows of the fenced block under `## Layers` in `markdown`: `Target -> A, B` a line (`(nothing)` for none), a
    /// line that starts with a space continuing the one before.
    static func arrows(in markdown: String) -> [Arrow] {
        guard let section = markdown.components(separatedBy: "\n## Layers\n").dropFirst().first,
            let block = section.components(separatedBy: "```").dropFirst().first
        else { return [] }
        var arrows: [Arrow] = []
        for line in block.split(separator: "\n").dropFirst() where !line.allSatisfy({ $0 == " " }) {
            let names = { (text: Substring) in
                text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && $0 != "(nothing)" }
            }
            if line.first == " ", !arrows.isEmpty {
                arrows[arrows.count - 1].dependencies += names(line)
                continue
            }
            let parts = line.components(separatedBy: "->")
            guard parts.count == 2 else {
                arrows.append(Arrow(target: String(line), dependencies: ["<no arrow>"]))
                continue
            }
            arrows.append(Arrow(target: parts[0].trimmingCharacters(in: .whitespaces), dependencies: names(Substring(parts[1]))))
        }
        return arrows
    }

    /// The targets of Package.swift that are the product (every target outside Tests/), and its system libraries.
    static func productTargets() throws -> [DeclaredDependenciesTests.Target] {
        let manifest = try String(contentsOfFile: PackageRoot.url.path + "/Package.swift", encoding: .utf8)
        var targets = DeclaredDependenciesTests.targets(in: manifest).filter { !$0.path.hasPrefix("Tests") }
        for system in manifest.components(separatedBy: ".systemLibrary(name: \"").dropFirst() {
            guard let name = system.split(separator: "\"").first else { continue }
            targets.append(.init(name: String(name), kind: "systemLibrary", path: "Sources/" + name, dependencies: []))
        }
        return targets
    }

    /// Every Swift file under `directory` (relative to the package), with its path from the package root and its text.
    static func swiftFiles(under directory: String) throws -> [(path: String, text: String)] {
        let root = PackageRoot.url.path
        let enumerator = try #require(FileManager.default.enumerator(atPath: root + "/" + directory))
        var files: [(String, String)] = []
        while let relative = enumerator.nextObject() as? String {
            guard relative.hasSuffix(".swift") else { continue }
            let path = directory + "/" + relative
            files.append((path, try String(contentsOfFile: root + "/" + path, encoding: .utf8)))
        }
        return files
    }

    /// `text` without its `//` comments, so what a comment names does not count as code naming it.
    static func code(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in line.components(separatedBy: "//").first ?? "" }
            .joined(separator: "\n")
    }

    @Test("CONTRIBUTING's drawing is Package.swift's dependencies exactly, bottom to top, no arrow pointing up")
    func drawingHolds() throws {
        let contributing = try String(contentsOfFile: PackageRoot.url.path + "/CONTRIBUTING.md", encoding: .utf8)
        let drawn = Self.arrows(in: contributing)
        let targets = try Self.productTargets()
        #expect(drawn.count >= 20, "read \(drawn.count) arrows from CONTRIBUTING's Layers block")
        #expect(
            Set(drawn.map(\.target)) == Set(targets.map(\.name)), "drawn \(drawn.map(\.target).sorted()), declared \(targets.map(\.name).sorted())")
        var below = Set<String>()
        for arrow in drawn {
            if let target = targets.first(where: { $0.name == arrow.target }) {
                #expect(
                    Set(arrow.dependencies) == target.dependencies,
                    "\(arrow.target): drawn \(arrow.dependencies), declared \(target.dependencies.sorted())")
            }
            for dependency in arrow.dependencies where !below.contains(dependency) {
                Issue.record("\(arrow.target) depends on \(dependency), which is not drawn below it")
            }
            below.insert(arrow.target)
        }
    }

    @Test("The model depends on no check kind, loader, runner or contract, and the runner not on the reference")
    func modelAndRunnerStayDown() throws {
        let targets = try Self.productTargets()
        let model = try #require(targets.first { $0.name == "AppFlipModel" })
        #expect(model.dependencies.isDisjoint(with: ["AppFlipChecks", "AppFlipLoading", "AppFlipRunner", "AppFlipReference", "AppFlipSetup"]))
        let runner = try #require(targets.first { $0.name == "AppFlipRunner" })
        #expect(!runner.dependencies.contains("AppFlipReference") && !runner.dependencies.contains("AppFlipLoading"))
    }

    @Test("No file outside AppFlipChecks names a check kind: the loader, the runner and the reports read the registry and CheckTraits")
    func kindsStayInTheirTarget() throws {
        let sources = try Self.swiftFiles(under: "Sources").map { (path: $0.path, code: Self.code($0.text)) }
        let conformance = try Regex(#"package struct (\w+): (?:CheckKind|HTTPResponseCheck|NativeCheck|ActivityCheck)\b"#)
        var kinds = Set<String>()
        for file in sources where file.path.hasPrefix("Sources/AppFlipChecks/") {
            for match in file.code.matches(of: conformance) {
                if let name = match.output[1].substring { kinds.insert(String(name)) }
            }
        }
        #expect(kinds.count >= 40, "read \(kinds.count) check kinds from AppFlipChecks")
        // Simple word boundaries: by Unicode's (the default), `CodeCheck.self` is one word and its kind would go unseen.
        let word = try Regex(#"\b(\w+Check)\b"#).wordBoundaryKind(.simple)
        var found: [String] = []
        for file in sources where !file.path.hasPrefix("Sources/AppFlipChecks/") {
            for match in file.code.matches(of: word) {
                if let name = match.output[1].substring, kinds.contains(String(name)) { found.append("\(file.path): \(name)") }
            }
        }
        #expect(found.isEmpty, "\(found)")
    }

    @Test("No target holds more than a fifth of the source lines")
    func noTargetTooLarge() throws {
        var lines: [String: Int] = [:]
        for file in try Self.swiftFiles(under: "Sources") {
            let target = file.path.split(separator: "/")[1]
            lines[String(target), default: 0] +=
                file.text.split(separator: "\n", omittingEmptySubsequences: false).count - (file.text.hasSuffix("\n") ? 1 : 0)
        }
        let total = lines.values.reduce(0, +)
        #expect(total > 10_000, "read \(total) source lines")
        for (target, count) in lines.sorted(by: { $0.key < $1.key }) {
            #expect(count * 5 <= total, "\(target) holds \(count) of \(total) source lines (\(count * 100 / max(total, 1))%)")
        }
    }

    @Test("Shared mutable state is a Locked: no other lock and no nonisolated(unsafe) in Sources or Tests, but the one that waits")
    func oneLock() throws {
        // One other primitive, for what a lock alone cannot do (CONTRIBUTING, "Layers"): JudgingQueue's condition lets
        // the worker and the judge wait for each other. This file names them all, to look for them.
        let allowed = [
            "Sources/AppFlipBase/Concurrency/Locked.swift": ["NSLock"],
            "Sources/AppFlipRunner/Running/JudgingQueue.swift": ["NSCondition"],
        ]
        let primitives = [
            "NSLock", "NSRecursiveLock", "NSCondition", "pthread_mutex", "pthread_rwlock", "os_unfair_lock", "OSAllocatedUnfairLock",
            "nonisolated(unsafe)",
        ]
        var found: [String] = []
        for file in try Self.swiftFiles(under: "Sources") + Self.swiftFiles(under: "Tests")
        where file.path != "Tests/AppFlipUnitTests/Package/LayerTests.swift" {
            let code = Self.code(file.text)
            for primitive in primitives where code.contains(primitive) && !(allowed[file.path] ?? []).contains(primitive) {
                found.append("\(file.path): \(primitive)")
            }
        }
        #expect(found.isEmpty, "\(found)")
    }

    @Test("The report writers see results only: no loader, runner, network, setup or evidence; evidence sits above them")
    func reportingSeesResults() throws {
        let targets = try Self.productTargets()
        let reporting = try #require(targets.first { $0.name == "AppFlipReporting" })
        let forbidden: Set<String> = [
            "AppFlipLoading", "AppFlipRunner", "AppFlipHTTP", "AppFlipTLS", "AppFlipSetup", "AppFlipSuite", "AppFlipEvidence",
        ]
        #expect(
            reporting.dependencies.isDisjoint(with: forbidden),
            "AppFlipReporting depends on \(reporting.dependencies.intersection(forbidden).sorted())")
        let evidence = try #require(targets.first { $0.name == "AppFlipEvidence" })
        #expect(evidence.dependencies.contains("AppFlipReporting") && !evidence.dependencies.contains("AppFlipRunner"))
        for file in try Self.swiftFiles(under: "Sources/AppFlipReporting") {
            for module in forbidden { #expect(!file.text.contains("import \(module)\n"), "\(file.path) imports \(module)") }
        }
    }

    /// The functions (and initializers) of `text` longer than `limit` lines, from the declaration's first line to its
    /// closing brace, as `line: count`; string literals and comments are not read for braces.
    /// `named`: only the functions of that name.
    static func longFunctions(in text: String, limit: Int, named: String? = nil) -> [String] {
        var code: [String] = []
        var inMultiline = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var kept = ""
            var index = line.startIndex
            while index < line.endIndex {
                let rest = line[index...]
                if inMultiline {
                    guard let end = rest.range(of: "\"\"\"") else { break }
                    index = end.upperBound
                    inMultiline = false
                } else if rest.hasPrefix("\"\"\"") {
                    inMultiline = true
                    index = line.index(index, offsetBy: 3)
                } else if rest.hasPrefix("//") {
                    break
                } else if line[index] == "\"" {
                    index = line.index(after: index)
                    while index < line.endIndex, line[index] != "\"" {
                        if line[index] == "\\", line.index(after: index) < line.endIndex { index = line.index(after: index) }
                        index = line.index(after: index)
                    }
                    if index < line.endIndex { index = line.index(after: index) }
                } else {
                    kept.append(line[index])
                    index = line.index(after: index)
                }
            }
            code.append(kept)
        }
        let declaration = try? Regex(#"(^|\s)(func\s+\w|init[?!]?\s*[(<])"#)
        var long: [String] = []
        for start in code.indices {
            guard let declaration, code[start].contains(declaration), !code[start].contains("protocol ") else { continue }
            if let named, !code[start].contains("func \(named)(") { continue }
            var depth = 0
            var opened = false
            var end = start
            scan: while end < code.count {
                for character in code[end] {
                    if character == "{" {
                        depth += 1
                        opened = true
                    } else if character == "}" {
                        depth -= 1
                    }
                }
                if opened, depth <= 0 { break scan }
                // A requirement without a body: the next declaration comes first.
                if !opened, end > start, code[end].contains(declaration) || code[end].contains("var ") || code[end].contains("case ") { break scan }
                end += 1
            }
            if opened, end - start + 1 > limit { long.append("\(start + 1): \(end - start + 1)") }
        }
        return long
    }

    @Test("No function in Sources is longer than 80 lines: a longer one is split into steps that say what they do")
    func functionsStayShort() throws {
        var found: [String] = []
        for file in try Self.swiftFiles(under: "Sources") {
            found += Self.longFunctions(in: file.text, limit: 80).map { "\(file.path):\($0) lines" }
        }
        #expect(found.isEmpty, "\(found)")
    }

    @Test("Every @unchecked Sendable in Sources says on the line above why a lock, the OS or OpenSSL makes it safe, and there are no more of them")
    func uncheckedSendables() throws {
        var found = 0
        var unexplained: [String] = []
        for file in try Self.swiftFiles(under: "Sources") {
            let lines = file.text.split(separator: "\n", omittingEmptySubsequences: false)
            for (index, line) in lines.enumerated()
            where line.contains("@unchecked Sendable") && !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                found += 1
                if index == 0 || !lines[index - 1].contains("/// Unchecked Sendable: ") { unexplained.append("\(file.path):\(index + 1)") }
            }
        }
        #expect(unexplained.isEmpty, "no reason on the line above: \(unexplained)")
        // 26 at f7241b1; eight now: a lock (Locked, JudgingQueue), copy-on-write, an owner thread (a socket, a TLS
        // stream, a hash context) and OpenSSL's objects read by many threads once set up (OpenSSLObject, the digest
        // algorithm).
        #expect(found <= 8, "\(found) @unchecked Sendable in Sources")
        #expect(found > 0, "read no @unchecked Sendable: the reader is broken")
    }

    @Test("A command's main is at most 40 lines: it parses its options struct, then runs steps each named for what they do")
    func commandMainsStayShort() throws {
        var found: [String] = []
        var mains = 0
        for file in try Self.swiftFiles(under: "Sources/AppFlipCLI") {
            mains += Self.longFunctions(in: file.text, limit: 0, named: "main").count
            found += Self.longFunctions(in: file.text, limit: 40, named: "main").map { "\(file.path):\($0) lines" }
        }
        #expect(mains >= 10, "read \(mains) mains")
        #expect(found.isEmpty, "\(found)")
    }

    @Test("The command line assembles no run record: the run's result, provenance and baseline are made below it (AppFlipSession)")
    func commandLineAssemblesNoRecord() throws {
        // Building a record or its provenance, setting a field of a provenance, applying a baseline.
        let assembling = [#"RunResult\("#, #"Provenance\("#, #"\.provenance\.[A-Za-z]+ *=[^=]"#, #"\.apply\([a-z]*[Bb]aseline"#]
        func assembles(_ line: Substring) -> Bool { assembling.contains { line.range(of: $0, options: .regularExpression) != nil } }
        #expect(assembles("run.provenance.seed = 1") && assembles("run.apply(baseline, today: day)") && !assembles("x.provenance.seed == 1"))
        var found: [String] = []
        for file in try Self.swiftFiles(under: "Sources/AppFlipCLI") {
            for (number, line) in Self.code(file.text).split(separator: "\n", omittingEmptySubsequences: false).enumerated() where assembles(line) {
                found.append("\(file.path):\(number + 1)")
            }
        }
        #expect(found.isEmpty, "\(found)")
        let session = try Self.swiftFiles(under: "Sources/AppFlipSession").map { Self.code($0.text) }.joined()
        #expect(
            session.contains("RunResult(") && session.contains("Provenance(") && session.contains(".apply(baseline"),
            "the session is where they are made")
    }

    @Test("The function reader counts a body from its declaration to its closing brace, past braces in strings and comments")
    func functionReader() {
        let body = (0..<79).map { "    let x\($0) = \"{\" // }" }.joined(separator: "\n")
        let text = "struct S {\n    func long() {\n" + body + "\n    }\n    func short() { }\n    init() {\n    }\n}\n"
        #expect(Self.longFunctions(in: text, limit: 80) == ["2: 81"])
        #expect(Self.longFunctions(in: text, limit: 81).isEmpty)
        #expect(Self.longFunctions(in: text, limit: 0, named: "short") == ["83: 1"])
        #expect(Self.longFunctions(in: text, limit: 80, named: "short").isEmpty)
        let multiline = "func f() {\n    let s = \"\"\"\n    {{{\n    \"\"\"\n}\n"
        #expect(Self.longFunctions(in: multiline, limit: 4) == ["1: 5"])
    }

    @Test("The drawing's reader reads targets, continuation lines and (nothing), and flags a line without an arrow")
    func reader() {
        let markdown = "## Layers\n\nText.\n\n```text\nA -> (nothing)\nB -> A,\n     C\nD\n```\n\n## Next\n"
        #expect(
            Self.arrows(in: "x\n" + markdown) == [
                Arrow(target: "A", dependencies: []), Arrow(target: "B", dependencies: ["A", "C"]),
                Arrow(target: "D", dependencies: ["<no arrow>"]),
            ])
    }
}
