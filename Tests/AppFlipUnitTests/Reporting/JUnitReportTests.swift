import AppFlipModel
import AppFlipRedaction
import AppFlipTestSupport
import Foundation
import Testing

@testable import AppFlipReporting

@Suite("JUnit report")
struct JUnitReportTests {
    @Test("The report matches the golden file (fixed clock and ordering)")
    func golden() throws {
        try Golden.check(JUnitReport(run: Fixtures.mixedRun()).render(), against: "junit.xml")
    }

    @Test("Reproducible output has zero times and no timestamp, and is the same for the same inputs")
    func reproducible() {
        let first = JUnitReport(run: Fixtures.mixedRun(), reproducible: true).render()
        #expect(first == JUnitReport(run: Fixtures.mixedRun(), reproducible: true).render())
        #expect(!first.contains("timestamp="))
        #expect(!first.contains("time=\"0.200\""))
    }

    @Test("Counts, verdict elements and properties are where CI reporters look for them")
    func structure() {
        let xml = JUnitReport(run: Fixtures.mixedRun()).render()
        #expect(xml.contains("<testsuites name=\"AppFlip Conformance\" tests=\"5\" failures=\"1\" errors=\"1\""))
        #expect(xml.contains("<testsuite name=\"app-link/demo\" tests=\"2\" failures=\"1\" errors=\"0\" skipped=\"0\""))
        #expect(xml.contains("<failure type=\"AF-LINK-005 MUST NOT\" message=\"AF-LINK-005 MUST NOT: expected declines (opens nothing); observed"))
        #expect(xml.contains("<error type=\"target-error\" message=\"target error: timed out"))
        #expect(xml.contains("<skipped message=\"needs a sandbox account\"/>"))
        #expect(
            xml.contains("<property name=\"requirement.AF-LINK-005\" value=\"MUST NOT · Unlisted redirect_uri never opened · RFC6749 §4.1.2.1\"/>"))
        #expect(xml.contains("Conformance/cases/app-link/demo/demo.case:10: AF-LINK-005 MUST NOT violated"))
        #expect(xml.contains("name=\"app-link/demo/fail\" time=\"0.200\""))
        #expect(xml.contains("time=\"0.012\""))
        #expect(xml.contains("<system-out>title: Title of app-link/demo/fail\n"))
        // The run's properties once; the suites' time is the run's wall time, not the cases' sum.
        #expect(xml.components(separatedBy: "<property name=\"seed\"").count == 2)
        #expect(xml.contains("<testsuites name=\"AppFlip Conformance\" tests=\"5\" failures=\"1\" errors=\"1\" time=\"1.500\">"))
        // A warning is not a plain pass: it is in system-err, which CI viewers show.
        #expect(xml.contains("<system-err>WARNING AF-LINK-019 SHOULD: expected opened universal-links-only; observed universal_links_only: false"))
    }

    @Test("A case's requirements are listed once each, in the order first named, comma-separated")
    func requirementList() {
        var run = Fixtures.mixedRun()
        let (first, second) = (RequirementReference(id: "AF-TEST-001", level: .must), RequirementReference(id: "AF-TEST-002", level: .should))
        run.results[0].checks = [first, second, first].map { CheckResult(requirement: $0, expected: "x", observed: "x", verdict: .pass) }
        let xml = JUnitReport(run: run).render()
        #expect(xml.contains("AF-TEST-001 MUST, AF-TEST-002 SHOULD\n"), "\(xml)")
        // Every level by its name, and IDs long and short, non-ASCII too.
        let references = Level.allCases.enumerated().map { index, level in
            RequirementReference(id: index % 2 == 0 ? "AF-\(index)" : "AF-LONGER-THAN-A-SMALL-STRING-\(index)-é", level: level)
        }
        #expect(ReportFormatting.requirementList(references) == references.map { "\($0.id) \($0.level.rawValue)" }.joined(separator: ", "))
    }

    @Test("A failure's type and message read as the requirement and its check joined, escaped, cut when too long")
    func failureMessage() throws {
        let base = Fixtures.mixedRun()
        let index = try #require(base.results.firstIndex { $0.verdict == .fail })
        let long = String(repeating: "x", count: 990)
        for level in Level.allCases {
            for (expected, observed) in [
                ("opens a URL", "declined"), ("a & b < c", "\"q\"\n\t\u{1}\u{202E}\u{FFFE}é"), ("short", long),
                // Exactly at the limit, and one byte over it.
                ("e", String(repeating: "y", count: 1024 - "AF-JUNIT-001 \(level.rawValue): expected e; observed ".utf8.count)),
                ("e", String(repeating: "y", count: 1025 - "AF-JUNIT-001 \(level.rawValue): expected e; observed ".utf8.count)),
                ("‹" + long, "›"),
            ] {
                var run = base
                let requirement = RequirementReference(id: "AF-JUNIT-001", level: level)
                run.results[index].checks = [CheckResult(requirement: requirement, expected: expected, observed: observed, verdict: .fail)]
                let xml = JUnitReport(run: run).render()
                let message = Excerpt.bounded("\(requirement): expected \(expected); observed \(observed)", limit: 1024)
                let line = "<failure type=\"\(XMLText.attribute(requirement.description))\" message=\"\(XMLText.attribute(message))\">"
                #expect(xml.contains(line), "\(level) \(expected.prefix(20)) \(observed.prefix(20))")
                #expect(xml.contains("demo.case:10: \(XMLText.text(requirement.description)) violated\n"))
            }
        }
    }

    @Test("A time reads as seconds with three decimals, rounded to the millisecond, as the string formula wrote it")
    func seconds() {
        let times: [Double] = [
            0, 0.0004, 0.0005, 0.001, 0.0099, 0.012, 0.1, 0.9995, 1, 1.9995, 9.999, 10, 59.5, 123.456, 12_345.678_9, 1e9, -1, -0.0004,
        ]
        var random = Mutator(seed: 1206)
        for time in times + (0..<2_000).map({ _ in Double(random.below(100_000_000)) / 1e4 }) {
            let milliseconds = Int((max(0, time) * 1000).rounded())
            let fraction = milliseconds % 1000
            let expected = "\(milliseconds / 1000).\(fraction < 10 ? "00" : fraction < 100 ? "0" : "")\(fraction)"
            #expect(ReportFormatting.seconds(time) == expected, "\(time)")
        }
        #expect(ReportFormatting.seconds(.infinity) == "\(Int.max / 1000).\(Int.max % 1000)")
        #expect(ReportFormatting.seconds(.nan) == "0.000")
    }

    @Test("Text from a target cannot break out of the document or carry characters XML forbids")
    func hostileText() {
        let xml = JUnitReport(run: Fixtures.mixedRun()).render()
        #expect(!xml.unicodeScalars.contains { $0.value == 1 })
        #expect(xml.contains("bad \u{FFFD} bytes ]]&gt; &lt;/system-out&gt; &lt;x&gt;"))
        #expect(xml.components(separatedBy: "</system-out>").count - 1 == 5)
    }

    @Test("The opt-in file attributes add file and line to each test case")
    func fileAttributes() {
        let xml = JUnitReport(run: Fixtures.mixedRun(), fileAttributes: true).render()
        #expect(xml.contains("file=\"Conformance/cases/app-link/demo/demo.case\" line=\"10\""))
    }

    @Test("The report validates against the Jenkins xunit schema", .enabled(if: XMLLint.available))
    func schema() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("junit-\(UUID().uuidString).xml").path
        try JUnitReport(run: Fixtures.mixedRun()).render().write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try XMLLint.validate(path, schema: PackageRoot.junitSchema)
        #expect(result.status == 0, "\(result.output)")
    }
}

/// Runs `xmllint --schema` when it is installed (CI installs it; see .ci/run).
enum XMLLint {
    static var available: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/xmllint") && FileManager.default.fileExists(atPath: PackageRoot.junitSchema)
    }

    static func validate(_ path: String, schema: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/xmllint")
        process.arguments = ["--noout", "--schema", schema, path]
        let pipe = Pipe()
        process.standardError = pipe
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
