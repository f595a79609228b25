import AppFlipBase
import AppFlipLoading
import AppFlipModel
import AppFlipRedaction
import AppFlipSyntax
import AppFlipTestSupport
import Foundation
import Testing

/// Deterministic mutation fuzzing (a fixed seed, so a failure reproduces anywhere). `FUZZ_ITERATIONS=N` runs
/// longer; `Fuzz/run.sh` runs libFuzzer on the same entry points for manual campaigns.
@Suite("Fuzzing")
struct FuzzTests {
    static let iterations = Int(ProcessInfo.processInfo.environment["FUZZ_ITERATIONS"] ?? "") ?? 3000
    static let seed = UInt64(ProcessInfo.processInfo.environment["FUZZ_SEED"] ?? "") ?? 20_261_122

    @Test("Mutated case files never crash the loader, and every rejection points inside the file")
    func caseFiles() throws {
        let catalog = try CatalogLoader.load(path: PackageRoot.catalog)
        let corpus = try FileManager.default.subpathsOfDirectory(atPath: PackageRoot.cases).filter { $0.hasSuffix(".case") }.sorted()
            .map { try Data(contentsOf: URL(fileURLWithPath: PackageRoot.cases + "/" + $0)) }.map { [UInt8]($0) }
        #expect(!corpus.isEmpty)
        var mutator = Mutator(seed: Self.seed)
        let started = Date()
        for iteration in 0..<Self.iterations {
            let input = mutator.mutate(corpus[iteration % corpus.count])
            var loader = CaseLoader(catalog: catalog)
            let cases = loader.load(bytes: input, file: "fuzz.case", group: "fuzz")
            let lineCount = input.split(separator: 0x0A, omittingEmptySubsequences: false).count
            for diagnostic in loader.diagnostics {
                #expect(
                    diagnostic.location.line >= 1 && diagnostic.location.line <= lineCount + 1,
                    "iteration \(iteration): \(diagnostic.location) outside a file of \(lineCount) lines")
                #expect(diagnostic.location.column >= 1)
                #expect(!diagnostic.message.isEmpty)
            }
            if loader.diagnostics.isEmpty { #expect(cases.count <= CaseLoader.maximumCases) }
        }
        // A rough speed record for the closing note; the assertion is only that it finished.
        print("fuzz: \(Self.iterations) case-file mutations in \(String(format: "%.2f", Date().timeIntervalSince(started))) s (seed \(Self.seed))")
    }

    @Test("Mutated queries and URLs never crash the parsing the checks rely on")
    func queries() {
        let seeds = [
            "client_id=a&scope=devices&state=s%20t&redirect_uri=https%3A%2F%2Fh%2Fa", "a=1&&b=%ZZ&c", "x=%e9%FF&y=+&=&&",
            "https://h:443/a/b?c=d#e?f", "code=abc&state=%F0%9F%94%91",
        ]
        var mutator = Mutator(seed: Self.seed ^ 0xA5A5)
        for iteration in 0..<Self.iterations {
            let bytes = mutator.mutate(Array(seeds[iteration % seeds.count].utf8))
            let text = String(decoding: bytes, as: UTF8.self)
            let parts = URLParts(text)
            _ = parts.parameters.map { ($0.name, $0.value) }
            _ = parts.queryIsURISafe
            _ = FormEncoding.decode(text)
            _ = Redaction.redact(url: text)
            _ = Redaction.scrubText(text, secrets: ["abc"])
            let encoded = FormEncoding.encode(bytes)
            #expect(FormEncoding.decode(encoded) == bytes, "encode then decode must round-trip (iteration \(iteration))")
        }
    }
}
