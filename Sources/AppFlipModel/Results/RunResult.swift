/// Everything a report writer needs: the results in case order, the catalog and the provenance.
public struct RunResult: Sendable {
    public var results: [CaseResult]
    public var catalog: Catalog
    public var provenance: Provenance
    /// True when the run stopped before every case finished.
    public var incomplete: Bool

    public init(results: [CaseResult], catalog: Catalog, provenance: Provenance, incomplete: Bool = false) {
        self.results = results
        self.catalog = catalog
        self.provenance = provenance
        self.incomplete = incomplete
    }

    public func count(_ verdict: Verdict) -> Int { results.filter { $0.verdict == verdict }.count }

    /// Problems with the run's configuration that spoiled cases, each once, in order of appearance.
    public var configurationProblems: [String] {
        var seen = Set<String>()
        return results.compactMap(\.configurationProblem).filter { seen.insert($0).inserted }
    }

    /// The run's overall verdict: fail beats error beats warn; a run with no cases is an error; a run in which
    /// every case was skipped tested nothing and is `skip`, never a pass.
    public var overall: Verdict {
        if results.isEmpty { return .error }
        if count(.fail) > 0 { return .fail }
        if count(.error) > 0 { return .error }
        if count(.skip) == results.count { return .skip }
        if count(.warn) > 0 { return .warn }
        if count(.info) > 0 { return .info }
        return .pass
    }

    public var exitStatus: ExitStatus {
        if incomplete { return .interrupted }
        if results.contains(where: { $0.suiteFault != nil }) { return .suiteFailure }
        switch overall {
        case .fail: return .nonConformant
        case .error: return configurationProblems.isEmpty ? .inconclusive : .configurationRejected
        case .skip: return .nothingTested
        case .pass, .info, .warn: return .conformant
        }
    }
}
