import AppFlipModel
import AppFlipReporting
import AppFlipRunner
import AppFlipTestSupport
import Foundation
import Testing

/// An app that logs everything the suite tells it, raw, in base64 and in hex, on its standard error: the codes the
/// test authorization server issued reach no report in any of those forms.
@Suite("A native client's log", .serialized)
struct NativeClientLogTests {
    @Test("Codes the test server issued, logged by the app raw, in base64 and in hex (at any alignment), show in no report")
    func loggedCodes() throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("native-log-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        // Each line the suite sends goes on to the reference client, to the side file, and to standard error three ways.
        let wrapper = """
            log=$1; shift
            while IFS= read -r line; do
              printf '%s\\n' "$line" >> "$log"
              printf '%s\\n' "$line"
              printf 'raw %s\\n' "$line" >&2
              printf 'b64 %s\\n' "$(printf '%s' "$line" | base64 -w0)" >&2
              printf 'hex %s\\n' "$(printf '%s' "$line" | od -An -tx1 -v | tr -d ' \\n')" >&2
            done | "$@"
            """
        var targets = TargetUnderTest()
        targets.adapters[.nativeApp] = NativeClientTarget(
            executable: "/bin/bash",
            arguments: [
                "-c", wrapper, "wrapper", log,
                BuiltProducts.path("appflip-conformance"),
                "reference-native-client", "--redirect", "scheme",
            ])
        let cases = try SuiteRun.load().1.cases.filter { $0.profile == .nativeClient }
        let run = try SuiteRun.run(targets, cases: cases)
        #expect(run.results.contains { $0.evidence.stderr.contains("b64 ") }, "the app's log is in the evidence")
        let reports = ReportSet(run: run, profiles: ["native-client"]).render().map(\.text).joined(separator: "\n")
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
        var checked = 0
        for line in lines {
            let bytes = Array(line.utf8)
            let base64 = Array(Data(bytes).base64EncodedString())
            let hex = bytes.map { String(format: "%02x", $0) }.joined()
            var search = line.startIndex
            while let found = line.range(of: "code=", range: search..<line.endIndex) {
                let code = line[found.upperBound...].prefix { $0.isLetter || $0.isNumber || "-_.~%".contains($0) }
                search = found.upperBound
                guard code.count >= 8 else { continue }
                let offset = line.utf8.distance(from: line.startIndex, to: found.upperBound)
                let length = code.utf8.count
                let telltales = [
                    String(code), String(hex.dropFirst(2 * offset).prefix(2 * length)),
                    String(base64[((8 * offset + 5) / 6)..<((8 * (offset + length)) / 6)]),
                ]
                for telltale in telltales {
                    #expect(!reports.contains(telltale), "the code \(code) shows as \(telltale)")
                }
                checked += 1
            }
        }
        #expect(checked >= 3, "the app was sent codes: \(lines.prefix(3))")
    }
}
