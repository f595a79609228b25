/// What a check judges beyond its scope: the facts the case format's step rules (a sample's name, a transport probe,
/// a burst, deciding open or decline), the judge (only the request, an unfinished activity) and the run (a code whose
/// single use it records) read of a check, each said by the kind of itself. Plain values, so no reader of them names
/// a check kind.
package struct CheckTraits: Sendable, Hashable {
    /// For a native check: it judges only what the app sent before any answer reached it (the authorization request,
    /// how it opened it, its listener), so it still applies when the redirect never reached the app.
    package var judgesOnlyTheRequest = false
    /// For an activity check: it judges an activity that did not finish (only `finished` does; every other check is
    /// not applicable then, so a stuck activity is blamed on the one requirement it breaks).
    package var judgesUnfinishedActivity = false
    /// The captured name a sample check judges (`distinct`, `entropy_bits`, `per_user`), or nil.
    package var sampleName: String?
    /// The transport probe a `.transport` check judges (`tls: legacy`, `scheme: http`), or nil for one that judges a
    /// burst or any request.
    package var transportProbe: HTTPStepRequest.TransportProbe?
    /// It judges a burst (`burst: N` on its request).
    package var judgesBurst = false
    /// It decides open or decline (`action`).
    package var decidesAction = false
    /// It requires an opened URL (`action: open`).
    package var requiresOpen = false
    /// It judges an HTTP response's status (`status`), what a `when_status` condition is made of.
    package var judgesStatus = false
    /// It judges the handler process itself, so it belongs in a link step and an intent step alike (`survives`: both
    /// contracts' adapters can crash).
    package var judgesTheProcess = false
    /// The code it accepts is one the run records, to find a code handed out twice and to estimate the codes'
    /// entropy (`code: fresh`).
    package var recordsIssuedCode = false

    package init(
        judgesOnlyTheRequest: Bool = false, judgesUnfinishedActivity: Bool = false, sampleName: String? = nil,
        transportProbe: HTTPStepRequest.TransportProbe? = nil, judgesBurst: Bool = false, decidesAction: Bool = false,
        requiresOpen: Bool = false, judgesStatus: Bool = false, judgesTheProcess: Bool = false, recordsIssuedCode: Bool = false
    ) {
        self.judgesOnlyTheRequest = judgesOnlyTheRequest
        self.judgesUnfinishedActivity = judgesUnfinishedActivity
        self.sampleName = sampleName
        self.transportProbe = transportProbe
        self.judgesBurst = judgesBurst
        self.decidesAction = decidesAction
        self.requiresOpen = requiresOpen
        self.judgesStatus = judgesStatus
        self.judgesTheProcess = judgesTheProcess
        self.recordsIssuedCode = recordsIssuedCode
    }
}
