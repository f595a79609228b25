/// One thing a case expects of the handler's answer.
public enum Assertion: Sendable, Hashable {
    public enum Action: String, Sendable, Hashable {
        /// The handler opens a URL.
        case open
        /// The handler does not handle the link and opens nothing.
        case decline
    }

    public enum Presence: String, Sendable, Hashable {
        case present
        case absent
    }

    public enum StateExpectation: String, Sendable, Hashable {
        /// Exactly one `state` whose once-decoded bytes equal the once-decoded bytes of the `state` sent.
        case echoed
        /// No `state` parameter.
        case absent
        /// Either echoed exactly, or absent; never altered.
        case echoedIfPresent = "echoed-if-present"
    }

    /// `action: open | decline`.
    case action(Action)
    /// `url_base: …`: the opened URL up to `?` or `#` equals this text exactly.
    case urlBase(Template)
    /// `code: present | absent`: exactly one non-empty `code` of visible ASCII characters (RFC 6749 App. A.11).
    case code(Presence)
    /// `state: echoed | absent | echoed-if-present`.
    case state(StateExpectation)
    /// `error: absent`, `error: NAME` or `error: [A, B]`: the `error` parameter.
    case error(Set<String>?)
    /// `error_description: rfc6749-charset`: when present, only %x20-21 / %x23-5B / %x5D-7E after decoding.
    case errorDescriptionCharset
    /// `params: strict`: only the parameters a result may carry, none repeated, every escape valid.
    case strictParameters
    /// `fragment: absent`: the opened URL has no `#`.
    case noFragment
    /// `universal_links_only: true`: the answer says the URL is opened universal-links-only.
    case universalLinksOnly

    // HTTP responses.

    /// `status: 302`, `status: [302, 303]`, `status: 4xx`: the response status.
    case status(StatusExpectation)
    /// `headers: {Name: …}`: one response header.
    case header(String, HeaderExpectation)
    /// `json: {member: …}`: one top-level member of a JSON response body.
    case json(String, JSONExpectation)
    /// `navigation: none`: no Location header, no meta refresh, no script that navigates.
    case noNavigation
    /// `body_excludes: text`: the body does not contain the text verbatim (an echoed value left unescaped).
    case bodyExcludes(Template)
    /// `framing: denied`: X-Frame-Options DENY/SAMEORIGIN or CSP frame-ancestors 'none'/'self'.
    case framingDenied
    /// `site_association: covers`: the apple-app-site-association JSON lets the configured app handle the link's path.
    case siteAssociationCovers
    /// `body_at_most: N`: the body is at most N bytes.
    case bodyAtMost(Int)
    /// `distinct: NAME`: every value a repeated step captured as NAME differs from the others.
    case distinct(String)
    /// `entropy_bits: {NAME: BITS}`: a conservative estimate of the captured values' entropy reaches BITS.
    case entropyBits(String, Int)

    public struct StatusExpectation: Sendable, Hashable {
        public var codes: Set<Int>
        /// Whole classes: 2 for 2xx, 4 for 4xx.
        public var classes: Set<Int>

        public init(codes: Set<Int> = [], classes: Set<Int> = []) {
            self.codes = codes
            self.classes = classes
        }

        public func matches(_ status: Int) -> Bool { codes.contains(status) || classes.contains(status / 100) }

        public var description: String {
            (codes.sorted().map(String.init) + classes.sorted().map { "\($0)xx" }).joined(separator: " or ")
        }
    }

    public enum HeaderExpectation: Sendable, Hashable {
        case present
        case absent
        /// Case-insensitive substring.
        case contains(String)
        /// Case-insensitive prefix.
        case startsWith(String)
    }

    public enum JSONExpectation: Sendable, Hashable {
        /// A non-empty string (or a number).
        case present
        case absent
        case equals(String)
        case equalsIgnoringCase(String)
        case oneOf(Set<String>)
        /// A JSON number that is a whole number above zero.
        case positiveInteger
    }
}

/// The expectations of one check group: all assertions must hold, or one of several alternatives must.
public enum Expectation: Sendable, Hashable {
    case all([Assertion])
    case oneOf([[Assertion]])
}

/// A requirement and the expectations that test it. One case may carry several, at different levels.
public struct CheckGroup: Sendable, Hashable {
    public var requirement: RequirementReference
    public var expectation: Expectation
    public var location: SourceLocationValue

    public init(requirement: RequirementReference, expectation: Expectation, location: SourceLocationValue) {
        self.requirement = requirement
        self.expectation = expectation
        self.location = location
    }
}
