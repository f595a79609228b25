/// A requirement the suite enforces, in our own words, traced to its sources.
public struct Requirement: Sendable, Hashable {
    public var id: String
    public var level: Level
    public var profile: String
    public var title: String
    public var statement: String
    public var citations: [Citation]
    /// How we resolved a conflict between sources, when there was one.
    public var decision: String?
    /// Why no case can observe this requirement through the profile's contract, when none can.
    public var notObservable: String?
    /// What a case for it still needs (a profile, a configuration value), while none covers it.
    public var planned: String?

    /// Why no case of this suite covers the requirement, when that is so by design or for now.
    public var uncoveredReason: String? {
        if let notObservable { return "not observable: " + notObservable }
        if let planned { return "planned: " + planned }
        return nil
    }

    public init(id: String, level: Level, profile: String, title: String, statement: String,
                citations: [Citation], decision: String? = nil, notObservable: String? = nil, planned: String? = nil) {
        self.id = id
        self.level = level
        self.profile = profile
        self.title = title
        self.statement = statement
        self.citations = citations
        self.decision = decision
        self.notObservable = notObservable
        self.planned = planned
    }
}
