import AppFlipModel
import AppFlipReference
import AppFlipRunner
import AppFlipTestSupport
import Foundation
import Testing

extension ConformanceCase: CustomTestStringConvertible {
    public var testDescription: String { id }
}

/// Every case in `Conformance/cases`, loaded when the tests start; empty (and reported) if they do not load.
enum ProjectCases {
    static let all: [ConformanceCase] = (try? SuiteRun.load().1.cases.filter { $0.profile == .appLink }) ?? []
    static let native: [ConformanceCase] = (try? SuiteRun.load().1.cases.filter { $0.profile == .nativeClient }) ?? []
}

/// The Swift Testing runner: every conformance case, run against the reference handler, one test per case ID.
@Suite("Conformance cases against the reference handler")
struct ConformanceCaseTests {
    static let runner = Runner(configuration: SuiteRun.configuration, timeout: 5, jobs: 1)
    static let target = InProcessTarget(handler: LinkHandler(clientID: SuiteRun.configuration.clientID))

    @Test("The case files load", .tags(.conformance))
    func casesLoad() throws {
        _ = try SuiteRun.load()
        #expect(ProjectCases.all.count >= 100)
        #expect(ProjectCases.native.count >= 14)
    }

    @Test(.tags(.conformance), arguments: ProjectCases.all)
    func conformanceCase(_ conformanceCase: ConformanceCase) {
        Self.expectPass(conformanceCase, targets: Targets(linkHandler: Self.target))
    }

    /// The native-client cases against the reference native client (its private-use-scheme mode; BrokenNativeClientTests
    /// runs both modes).
    @Test(.tags(.conformance), arguments: ProjectCases.native)
    func nativeClientCase(_ conformanceCase: ConformanceCase) {
        var targets = Targets()
        targets.nativeClient = NativeClientTarget(executable: BuiltProducts.path("appflip-reference"), arguments: ["native-client"])
        Self.expectPass(conformanceCase, targets: targets)
    }

    private static func expectPass(_ conformanceCase: ConformanceCase, targets: Targets) {
        let worker = Runner.Worker(runner: Self.runner, targets: targets)
        defer { worker.close() }
        let result = worker.run(conformanceCase)
        let location = Testing.SourceLocation(
            fileID: "Conformance/\((conformanceCase.location.file as NSString).lastPathComponent)",
            filePath: PackageRoot.url.appendingPathComponent(conformanceCase.location.file).path,
            line: conformanceCase.location.line, column: max(1, conformanceCase.location.column))
        if result.verdict == .error {
            Issue.record("target error: \(result.message ?? "")", sourceLocation: location)
        }
        for finding in result.findings {
            Issue.record("\(finding.requirement): expected \(finding.expected); observed \(finding.observed)", sourceLocation: location)
        }
        #expect(result.verdict == .pass, sourceLocation: location)
    }
}

extension Tag {
    @Tag static var conformance: Self
}
