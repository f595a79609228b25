import AppFlipLoading
import AppFlipModel
import Testing

/// What counts as a sign of throttling in one answer of a burst, and how a burst is summarised.
@Suite("Burst")
struct BurstTests {
    @Test("429, Retry-After, 503 and a growing delay are signs; a steady 401 is not")
    func signs() {
        #expect(Burst.sign(status: 429, retryAfter: nil, milliseconds: 3, firstMilliseconds: 3, attempt: 7)?.hasPrefix("429") == true)
        #expect(Burst.sign(status: 401, retryAfter: "30", milliseconds: 3, firstMilliseconds: 3, attempt: 7)?.hasPrefix("Retry-After: 30") == true)
        #expect(Burst.sign(status: 503, retryAfter: nil, milliseconds: 3, firstMilliseconds: 3, attempt: 2)?.hasPrefix("503") == true)
        #expect(Burst.sign(status: 401, retryAfter: nil, milliseconds: 1503, firstMilliseconds: 3, attempt: 12)?.contains("took 1503 ms") == true)
        #expect(Burst.sign(status: 401, retryAfter: nil, milliseconds: 40, firstMilliseconds: 3, attempt: 12) == nil)
        // A slow server is not a throttling one: a second more than a slow first answer, but not twice as long.
        #expect(Burst.sign(status: 401, retryAfter: nil, milliseconds: 3100, firstMilliseconds: 2000, attempt: 5) == nil)
        #expect(Burst.sign(status: 401, retryAfter: nil, milliseconds: 5000, firstMilliseconds: 5000, attempt: 1) == nil)
    }

    @Test("Statuses are folded into runs")
    func runs() {
        #expect(Burst.runs([401, 401, 401, 429]) == "401 ×3, 429")
        #expect(Burst.runs([400, 401, 401]) == "400, 401 ×2")
        #expect(Burst.runs([]) == "")
    }

    @Test("Lint: 'throttled' needs a burst; a burst is 5 to 100 requests")
    func lint() {
        func diagnostics(_ request: String) -> [String] {
            let text =
                "id: a/b\ntitle: t\nprofile: token\nscenario: consent\nsteps:\n  - request:\n      endpoint: token\n" + request
                + "    checks:\n      - requirement: TOK-GEN-006-S SHOULD\n        expect:\n          throttled: within-burst\n"
            var loader = CaseLoader(catalog: nil)
            _ = loader.load(bytes: Array(text.utf8), file: "b.case", group: "g")
            return loader.diagnostics.map(\.message)
        }
        #expect(diagnostics("").contains { $0.contains("give the request 'burst: N'") })
        #expect(diagnostics("      burst: 500\n").contains { $0.contains("5 to 100") })
        #expect(diagnostics("      burst: 30\n").isEmpty)
    }
}
