import AppFlipEvidence
import AppFlipModel
import AppFlipReporting
import AppFlipTestSupport
import Testing

/// A case's run fault (the suite's, the configuration's, an unusable target) goes into results.json as what it is and
/// comes back from it the same, so `merge` and `verify` say it as the run did; a file that claims two is refused.
@Suite("Run faults through results.json")
struct RunFaultRoundTripTests {
    private let faults: [RunFault] = [
        .suite("out of file descriptors"),
        .configuration("the token endpoint rejected the configured client secret"),
        .unreachable(UnreachableTarget(key: "the link handler", reason: "the handler did not answer a first request before the run")),
    ]

    @Test("Each kind of run fault is written and read back unchanged, and so is a case without one")
    func roundTrip() throws {
        let result = try #require(Fixtures.mixedRun().results.first)
        for fault in faults + [nil] as [RunFault?] {
            var faulted = result
            faulted.runFault = fault
            let entry = ResultsDocument.CaseEntry(faulted, reproducible: true)
            let read = try ResultsDocument.result(entry, faulted.conformanceCase, file: "results.json")
            #expect(read.runFault == fault, "\(String(describing: fault))")
        }
    }

    @Test("A case entry with more than one run fault is refused, naming the file and the case")
    func twoFaultsRefused() throws {
        let result = try #require(Fixtures.mixedRun().results.first)
        var faulted = result
        faulted.runFault = .suite("out of memory")
        var entry = ResultsDocument.CaseEntry(faulted, reproducible: true)
        entry.unreachableTarget = ResultsDocument.UnreachableEntry(key: "the link handler", reason: "no answer")
        #expect {
            _ = try ResultsDocument.result(entry, faulted.conformanceCase, file: "shard/results.json")
        } throws: { error in
            "\(error)".contains(
                "shard/results.json: case \(result.conformanceCase.id) has more than one of suite_fault, configuration_problem and unreachable_target"
            )
        }
    }
}
