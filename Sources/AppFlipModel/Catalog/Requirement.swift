/// A requirement the suite enforces, in our own words, traced to its sources.
package struct Requirement: Sendable, Hashable {
    package var id: String
    package var level: Level
    package var profile: String
    package var title: String
    package var statement: String
    package var citations: [Citation]
    /// How we resolved a conflict between sources, when there was one.
    package var decision: String?
    /// Why no case can observe this requirement through the profile's contract, when none can.
    package var notObservable: String?
    /// What a case for it still needs (a profile, a configuration value), while none covers it.
    package var planned: String?
    /// Which requests the suite judges it on by itself, besides the checks a case states (TOK-GEN-008: every
    /// request a server may leave partly unread).
    package var judgedBySuite: String?
    /// The condition its source attaches to it ("if the server requires PKCE"): judged only when it holds; a target
    /// whose answers, which the sources allow, do not meet it is not failed, and a case that judges nothing else is
    /// not applicable to it.
    package var appliesWhen: String?
    /// The sentence of one of its sources it rests on, when the catalog quotes it.
    package var quote: SourceQuote?

    /// Why no case of this suite covers the requirement, when that is so by design or for now.
    package var uncoveredReason: String? {
        if let notObservable { return "not observable: " + notObservable }
        if let planned { return "planned: " + planned }
        if let judgedBySuite { return "judged by the suite itself: " + judgedBySuite }
        return nil
    }

    package init(
        id: String, level: Level, profile: String, title: String, statement: String,
        citations: [Citation], decision: String? = nil, notObservable: String? = nil, planned: String? = nil,
        quote: SourceQuote? = nil
    ) {
        self.id = id
        self.level = level
        self.profile = profile
        self.title = title
        self.statement = statement
        self.citations = citations
        self.decision = decision
        self.notObservable = notObservable
        self.planned = planned
        self.quote = quote
    }
}
