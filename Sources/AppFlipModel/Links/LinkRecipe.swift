/// How a case's incoming link is made: from the profile's valid base link, with edits, or from raw text.
///
/// The base link is `${link}?client_id=…&scope=…&state=…&redirect_uri=…`, every value form-encoded.
/// Edits apply in a fixed order: `remove`, then `set`/`set_raw`, then `append`/`append_raw`, then `order`.
/// `query` replaces the whole query with exact text; `raw` replaces the whole link.
package struct LinkRecipe: Sendable, Hashable {
    package struct Parameter: Sendable, Hashable {
        package var name: String
        package var value: Template
        /// When true the value is inserted exactly as written (already percent-encoded), else form-encoded.
        package var isRaw: Bool

        package init(name: String, value: Template, isRaw: Bool) {
            self.name = name
            self.value = value
            self.isRaw = isRaw
        }
    }

    /// The valid parameters the edits start from.
    package var base: ParameterBase = .appLink
    package var remove: [String] = []
    package var set: [Parameter] = []
    package var append: [Parameter] = []
    package var order: [String] = []
    package var query: Template?
    package var fragment: Template?
    package var raw: Template?

    package init() {}

    /// The valid base link, with no edits.
    package static let base = LinkRecipe()

    /// The valid parameters of one kind of request, with no edits.
    package static func base(_ base: ParameterBase) -> LinkRecipe {
        var recipe = LinkRecipe()
        recipe.base = base
        return recipe
    }
}

/// The valid parameter sets edits start from, one per kind of request.
package enum ParameterBase: String, Sendable, Hashable, CaseIterable {
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
