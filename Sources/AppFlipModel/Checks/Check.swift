/// What the model knows of an expectation a case states under `expect`: its key, what it looks at, what it says a
/// target must do, how it judges an observation, and the facts about what it judges that the case format's rules
/// read (``CheckTraits``). Nothing here reads a case file or names a kind: every kind, how it reads itself and its
/// FORMAT.md row are `CheckKind`s in AppFlipChecks, listed once in its `CheckRegistry`.
package protocol Check: Sendable, Hashable {
    /// The key under `expect`, for example `state`.
    static var key: String { get }
    /// What the check looks at; decides when it applies.
    var scope: CheckScope { get }
    /// What a reviewer reads as "expected".
    func expected(in context: Template.Context) -> String
    /// Judges an observation the check applies to.
    func evaluate(_ observation: Observation, in context: Template.Context) -> CheckOutcome
    /// What it judges beyond its scope, as the case format's step rules and the judge ask it; none by default.
    var traits: CheckTraits { get }
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

    package init(_ held: Bool, _ observed: String) {
        self = held ? .held(observed: observed) : .violated(observed: observed)
    }
}

extension Check {
    package var traits: CheckTraits { CheckTraits() }

    package func isEqual(to other: any Check) -> Bool {
        (other as? Self) == self
    }
}
