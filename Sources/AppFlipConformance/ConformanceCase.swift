import AppFlipModel

/// One case of the suite: a link (or a sequence of HTTP steps) to send, and the checks that judge the answer, each
/// tied to a requirement at its level.
public struct ConformanceCase: Sendable, Hashable, Identifiable, CustomStringConvertible {
    /// Stable and written in the case file, never positional: `app-link/redirect-uri/lookalike-suffix-host`.
    public var id: String { model.id }
    public var title: String { model.title }
    public var profile: Profile { model.profile }
    /// The requirements the case checks, by ID, each once.
    public var requirements: [String] { model.requirements.map(\.id) }
    /// The strongest level among the case's checks: MUST if any check is a MUST or MUST NOT, and so on.
    public var level: Level { model.requirements.map(\.level).min() ?? .may }
    /// The case file, relative to the package (`Conformance/cases/app-link/state/echoed.case`), and the case's line.
    public var file: String { model.location.file }
    public var line: Int { model.location.line }
    public var column: Int { model.location.column }
    /// When set, the case is always skipped with this reason.
    public var skipReason: String? { model.skipReason }

    public var description: String { id }

    package let model: AppFlipModel.ConformanceCase

    package init(_ model: AppFlipModel.ConformanceCase) {
        self.model = model
    }
}
