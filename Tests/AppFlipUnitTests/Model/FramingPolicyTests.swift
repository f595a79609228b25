import AppFlipBase
import AppFlipChecks
import AppFlipTestSupport
import Testing

/// Whether a page's headers forbid framing (`FramingPolicy`): the same answer, header values and directive as the
/// reading that lower-cased every directive, whatever the case, spacing and characters of the policies.
@Suite("Framing policy")
struct FramingPolicyTests {
    @Test("A policy's frame-ancestors reads as before on 5,000 seeded policies: any case, spaces, non-ASCII, several")
    func oracle() {
        let pieces = [
            "frame-ancestors 'none'", "FRAME-ANCESTORS 'self'", "Frame-Ancestors https://a.example", "frame-ancestors", "frame-ancestor",
            "frame-ancestorsx 'none'", " \tframe-ancestors 'self' 'none' ", "default-src 'self'", "script-src 'nonce-x'", "",
            "frame-ancestors\u{301} 'none'", "\u{A0}frame-ancestors 'none'", "İframe-ancestors", "frame-ancestorſ 'none'",
            "FRAME-ANCESTORS \u{212A} 'none'", "img-src *", "frame-src 'none'", "ｆrame-ancestors 'none'",
        ]
        var random = Mutator(seed: 1206)
        for _ in 0..<5_000 {
            let policies = (0..<random.below(3)).map { _ in
                (0..<random.below(5)).map { _ in pieces[random.below(pieces.count)] }.joined(separator: random.below(2) == 0 ? ";" : "; ")
            }
            let options = (0..<random.below(2)).map { _ in ["deny", " SAMEORIGIN ", "allow-from x", ""][random.below(4)] }
            let (denied, frameOptions, ancestors) = FramingPolicy.denies(options, policies)
            let expected = Self.lowerCasingEvery(options, policies)
            guard denied == expected.0, frameOptions == expected.1, ancestors == expected.2 else {
                Issue.record("\(options) \(policies): \(denied) \(ancestors ?? "nil"), before \(expected.0) \(expected.2 ?? "nil")")
                return
            }
        }
    }

    @Test("frame-ancestors of only 'none' and 'self', or X-Frame-Options DENY or SAMEORIGIN, denies framing")
    func denies() {
        #expect(FramingPolicy.denies([], ["default-src 'self'; Frame-Ancestors 'NONE'"]).0)
        #expect(FramingPolicy.denies(["sameorigin"], []).0)
        #expect(!FramingPolicy.denies([], ["default-src 'self'; frame-ancestors https://a.example"]).0)
        #expect(!FramingPolicy.denies([], ["default-src 'self'"]).0)
        #expect(FramingPolicy.denies([], ["default-src 'self'"]).2 == nil)
    }

    /// The reading this replaced: every directive trimmed and lower-cased, the first that starts with the name.
    static func lowerCasingEvery(_ xFrameOptions: [String], _ policies: [String]) -> (Bool, [String], String?) {
        let frameOptions = xFrameOptions.map { $0.trimmingSpaces().uppercased() }
        let directives = policies.flatMap { $0.split(separator: ";") }.map { $0.trimmingSpaces().lowercased() }
        let ancestors = directives.first { $0.hasPrefix("frame-ancestors") }
        let cspDenies =
            ancestors.map { directive in
                let sources = directive.split(separator: " ").dropFirst().map(String.init)
                return !sources.isEmpty && sources.allSatisfy { $0 == "'none'" || $0 == "'self'" }
            } ?? false
        return (cspDenies || frameOptions.contains("DENY") || frameOptions.contains("SAMEORIGIN"), frameOptions, ancestors)
    }
}
