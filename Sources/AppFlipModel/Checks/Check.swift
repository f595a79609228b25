import AppFlipSyntax

/// One kind of expectation a case states under `expect`: its key, how it reads itself from a case, when it
/// applies, how it judges an observation, and the sentence a report prints as "expected".
///
/// Each kind lives in its own file and is listed once in ``CheckRegistry``; the case loader, the judge and the
/// format documentation all go through the registry, so a kind cannot be known to one and not the others.
package protocol Check: Sendable, Hashable {
    /// The key under `expect`, for example `state`.
    static var key: String { get }
    /// Its row in FORMAT.md.
    static var documentation: CheckDocumentation { get }
    /// Reads the value written under ``key``. Every problem is a diagnostic; nil (or an empty list) means nothing
    /// usable was read, and the loader then refuses the case: a check never vanishes silently.
    static func read(_ node: Node, reader: inout NodeReader) -> [Self]?

    /// What the check looks at; decides when it applies.
    var scope: CheckScope { get }
    /// What a reviewer reads as "expected".
    func expected(in context: Template.Context) -> String
    /// Judges an observation the check applies to.
    func evaluate(_ observation: Observation, in context: Template.Context) -> CheckOutcome
    /// For a native check: whether it judges only what the app sent before any answer reached it (the authorization
    /// request, how it opened it, its listener), so it still applies when the redirect never reached the app.
    var judgesOnlyTheRequest: Bool { get }
    /// For an activity check: whether it judges an activity that did not finish (only `finished` does; every other
    /// check is not applicable then, so a stuck activity is blamed on the one requirement it breaks).
    var judgesUnfinishedActivity: Bool { get }

    // What the loader asks of a check's step (`CaseLoader+StepRules`): each kind says it of itself.
    /// The captured name a sample check judges (`distinct`, `entropy_bits`, `per_user`), or nil.
    var sampleName: String? { get }
    /// The transport probe a `.transport` check judges (`tls: legacy`, `scheme: http`), or nil for one that judges a
    /// burst or any request.
    var transportProbe: HTTPStepRequest.TransportProbe? { get }
    /// Whether it judges a burst (`burst: N` on its request).
    var judgesBurst: Bool { get }
    /// Whether it decides open or decline (`action`), and whether it requires an opened URL (`action: open`).
    var decidesAction: Bool { get }
    var requiresOpen: Bool { get }
    /// Whether it judges the handler process itself, so it belongs in a link step and an intent step alike
    /// (`survives`: both contracts' adapters can crash).
    var judgesTheProcess: Bool { get }
    /// How FORMAT.md names the check's form that judges an opened URL's content (`code: present`), or nil when no
    /// form does: FORMAT.md's list is held against these.
    static var openedURLForm: String? { get }
}

/// What a check looks at.
package enum CheckScope: Sendable, Hashable {
    /// The answer as a whole (opened or not): `action`, and absence checks, which hold when nothing was opened.
    case answer
    /// The content of the opened URL (or a redirect's Location): not applicable when nothing was opened. A step
    /// with such a check must also state `action: open`, so a decline is blamed on the requirement it breaks.
    case openedURL
    /// The HTTP response itself: status, headers, body. Only in request steps.
    case response
    /// The values captured over a repeated step; judged once, after the last repetition.
    case samples
    /// Whether an HTTP answer came at all: judged on answers and on failed connections alike.
    case transport
    /// A native-client step: the app's answers and the requests the test authorization server received.
    case native
    /// An activity step: the result the partner's activity gave back.
    case activity
}

/// What judging a check found.
package enum CheckOutcome: Sendable, Hashable {
    case held(observed: String)
    case violated(observed: String)
    /// The check is about something the target did not produce (a URL's content when nothing was opened): it
    /// neither held nor failed, and another check of the step carries the verdict.
    case notApplicable(reason: String)

    init(_ held: Bool, _ observed: String) {
        self = held ? .held(observed: observed) : .violated(observed: observed)
    }
}

/// A check kind's row in the format documentation.
package struct CheckDocumentation: Sendable {
    package enum Section: Sendable {
        /// "### `expect`": the link handler's answer, or a redirect's Location.
        case answer
        /// The HTTP response table under "Steps".
        case response
        /// The native-client table: the app's answers and the test authorization server's requests.
        case native
        /// The activity table: the result the partner's activity gave back.
        case activity
    }

    package var section: Section
    package var values: String
    package var holdsWhen: String

    package init(_ section: Section, values: String, holdsWhen: String) {
        self.section = section
        self.values = values
        self.holdsWhen = holdsWhen
    }
}

extension Check {
    /// Whether the check applies to this observation; when it does not, why.
    package func applicability(_ observation: Observation) -> String? {
        switch scope {
        case .answer, .samples:
            return nil
        case .openedURL:
            switch observation {
            case .link(let answer):
                return answer.action == .open && answer.url != nil ? nil : "nothing was opened (the handler declined), so there is no URL to judge"
            case .http(let response):
                return response.asAnswer.action == .open ? nil : "\(observation.summary) is not a redirect, so there is no Location to judge"
            case .unreachable, .handshake:
                return "\(observation.summary), so there is no Location to judge"
            case .native, .activity:
                return "\(observation.appStepNoun ?? "the step") opens no link"
            }
        case .response:
            switch observation {
            case .http: return nil
            case .link: return "a link handler's answer has no HTTP response"
            case .unreachable, .handshake: return "\(observation.summary), so there is no response to judge"
            case .native: return "\(observation.appStepNoun ?? "the step") is judged on the app and the server's requests"
            case .activity: return "\(observation.appResultNoun ?? "the step") has no HTTP response"
            }
        case .transport:
            return nil
        case .native:
            return NativeObservation.applicability(of: self, to: observation)
        case .activity:
            return ActivityResult.applicability(of: self, to: observation)
        }
    }

    package var judgesUnfinishedActivity: Bool { false }

    package var judgesOnlyTheRequest: Bool { false }
    package var sampleName: String? { nil }
    package var transportProbe: HTTPStepRequest.TransportProbe? { nil }
    package var judgesBurst: Bool { false }
    package var decidesAction: Bool { false }
    package var requiresOpen: Bool { false }
    package var judgesTheProcess: Bool { false }
    package static var openedURLForm: String? { nil }

    func isEqual(to other: any Check) -> Bool {
        (other as? Self) == self
    }
}
