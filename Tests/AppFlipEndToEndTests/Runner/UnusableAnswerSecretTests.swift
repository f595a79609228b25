import AppFlipBase
import AppFlipModel
import AppFlipReporting
import AppFlipSetup
import AppFlipTestSupport
import Foundation
import Testing

@testable import AppFlipRunner

/// An Android activity's unusable answer still carries a live code: it never reaches a report, over stdio (one-shot
/// and persistent) or over HTTP. And output past the answer is the same error for the Android contract as for iOS.
@Suite("Secrets in unusable answers", .serialized)
struct UnusableAnswerSecretTests {
    static let prefix = "LIVECODE"

    /// Every Android case against `target`, and its three reports rendered.
    private static func run(_ target: any ExchangeTarget, seed: UInt64 = 7, jobs: Int = 2) throws -> (RunResult, String) {
        let setup = try RunSetup.reference(TargetSpecification(seed: seed), handler: .inProcess, nativeClient: nil)
        defer { setup.referenceServer?.stop() }
        var targets = setup.targets
        targets.adapters[.androidActivity] = target
        let cases = try SuiteRun.load().1.cases.filter { $0.profile == .androidAppFlip }
        let run = try SuiteRun.run(targets, cases: cases, configuration: setup.configuration, timeout: 5, jobs: jobs)
        let reports = ReportSet(run: run, profiles: ["android-app-flip"]).render().map(\.text).joined(separator: "\n")
        return (run, reports)
    }

    private static func handler(_ defect: String, mode: SubprocessTarget.Mode) throws -> any ExchangeTarget {
        try RunSetup.androidHandler(
            BuiltProducts.path("broken-android-handler"), arguments: ["--defect", defect, "--code-prefix", prefix], mode: mode)
    }

    @Test(
        "Over stdio, one-shot and persistent: every unusable form is a case error, and no live code shows",
        arguments: [SubprocessTarget.Mode.oneShot, .persistent])
    func stdio(_ mode: SubprocessTarget.Mode) throws {
        let (run, reports) = try Self.run(Self.handler("unusable-answers", mode: mode))
        let consent = run.results.filter { $0.verdict == .error && $0.evidence.answer.contains("AUTHORIZATION_CODE") }
        #expect(!consent.isEmpty, "no unusable answer with a code was seen")
        #expect(consent.allSatisfy { $0.evidence.answer.contains("‹redacted") }, "\(consent.map(\.evidence.answer))")
        #expect(!Self.showsCode(reports), "a live code reached a report")
    }

    @Test("The unusable form a case gets depends on what it asks, not on the seed or the workers: the same verdicts every run")
    func sameFormEveryRun() throws {
        let verdicts = { (seed: UInt64, jobs: Int) throws -> [String: Verdict] in
            let (run, _) = try Self.run(Self.handler("unusable-answers", mode: .persistent), seed: seed, jobs: jobs)
            return Dictionary(uniqueKeysWithValues: run.results.map { ($0.conformanceCase.id, $0.verdict) })
        }
        let first = try verdicts(7, 2)
        let second = try verdicts(8, 4)
        #expect(first == second, "\(first.filter { second[$0.key] != $0.value }.map(\.key).sorted())")
        #expect(Set(first.values).count > 1, "every case got the same verdict: the forms do not vary")
    }

    /// Whether a code (the prefix, then what was minted) shows; the prefix alone is in the command line.
    private static func showsCode(_ text: String) -> Bool { text.contains(/LIVECODE[A-Za-z0-9_-]/) }

    @Test("Over HTTP (--android-handler-url): no live code shows")
    func http() throws {
        let bridge = try AdapterBridge(BuiltProducts.path("broken-android-handler"), ["--defect", "unusable-answers", "--code-prefix", Self.prefix])
        defer { bridge.stop() }
        let target = try #require(HTTPAdapterTarget(url: "http://127.0.0.1:\(bridge.port)/activity"))
        let (run, reports) = try Self.run(target)
        #expect(run.results.contains { $0.verdict == .error && $0.evidence.answer.contains("AUTHORIZATION_CODE") })
        #expect(!Self.showsCode(reports), "a live code reached a report")
    }

    @Test("Output past the answer in one-shot mode is an error for an Android activity as for a link handler; nothing passes")
    func floodAfterAnswer() throws {
        let (run, _) = try Self.run(Self.handler("floods-after-answer", mode: .oneShot))
        #expect(run.count(.pass) == 0, "\(run.results.filter { $0.verdict == .pass }.map(\.conformanceCase.id))")
        #expect(
            run.results.contains { $0.verdict == .error && ($0.message ?? "").contains("bytes of output for one request") },
            "\(run.results.map { $0.message ?? "" }.prefix(3))")
        #expect(run.exitStatus != .conformant)
    }
}

/// An adapter command served over HTTP, as the Robolectric bridge serves an activity: each POST's body is one request
/// line for one long-lived process, its answer line the response's body.
final class AdapterBridge: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    /// One exchange with the adapter at a time.
    private let exchanging = Locked(())
    private var server: RecordingServer?

    var port: Int { server?.port ?? 0 }

    init(_ program: String, _ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        server = try RecordingServer { [self] request in
            guard let split = request.firstRange(of: Array("\r\n\r\n".utf8)) else { return .closeWithoutAnswer }
            let body = Array(request[split.upperBound...])
            let answer = exchanging.withLock { _ in exchange(body) }
            return RecordingServer.ok(String(decoding: answer, as: UTF8.self), headers: "Content-Type: application/json\r\n")
        }
    }

    /// One request line in, one answer line out.
    private func exchange(_ line: [UInt8]) -> [UInt8] {
        input.fileHandleForWriting.write(Data(line + (line.last == 0x0A ? [] : [0x0A])))
        var answer: [UInt8] = []
        while let byte = try? output.fileHandleForReading.read(upToCount: 1), let first = byte.first, first != 0x0A { answer.append(first) }
        return answer
    }

    func stop() {
        server?.stop()
        process.terminate()
    }
}
