/// How a case's incoming link is made: from the profile's valid base link, with edits, or from raw text.
///
/// The base link is `${link}?client_id=…&scope=…&state=…&redirect_uri=…`, every value form-encoded.
/// Edits apply in a fixed order: `remove`, then `set`/`set_raw`, then `append`/`append_raw`, then `order`.
/// `query` replaces the whole query with exact text; `raw` replaces the whole link.
public struct LinkRecipe: Sendable, Hashable {
    public struct Parameter: Sendable, Hashable {
        public var name: String
        public var value: Template
        /// When true the value is inserted exactly as written (already percent-encoded), else form-encoded.
        public var isRaw: Bool

        public init(name: String, value: Template, isRaw: Bool) {
            self.name = name
            self.value = value
            self.isRaw = isRaw
        }
    }

    /// The valid parameters the edits start from.
    public var base: ParameterBase = .appLink
    public var remove: [String] = []
    public var set: [Parameter] = []
    public var append: [Parameter] = []
    public var order: [String] = []
    public var query: Template?
    public var fragment: Template?
    public var raw: Template?

    public init() {}

    /// The valid base link, with no edits.
    public static let base = LinkRecipe()

    /// The valid parameters of one kind of request, with no edits.
    public static func base(_ base: ParameterBase) -> LinkRecipe {
        var recipe = LinkRecipe()
        recipe.base = base
        return recipe
    }
}

/// The valid parameter sets edits start from, one per kind of request.
public enum ParameterBase: String, Sendable, Hashable, CaseIterable {
    /// `client_id, scope, state, redirect_uri` (the flip URI): the App Flip universal link Google opens.
    case appLink = "app-link"
    /// `response_type=code, client_id, redirect_uri` (Google's browser-linking URI), `scope, state`.
    case authorize
    /// `grant_type=authorization_code, code=${captured.code}, redirect_uri=${web_redirect_uri}`.
    case code
    /// `grant_type=refresh_token, refresh_token=${captured.refresh_token}`.
    case refresh
    /// `token=${captured.access_token}` (RFC 7009).
    case revoke
    /// No parameters.
    case none
}
