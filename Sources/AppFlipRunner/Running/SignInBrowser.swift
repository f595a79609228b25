import AppFlipHTTP
import AppFlipModel
import Foundation

/// Drives an authorization request through the target's real sign-in and consent pages as a browser without
/// JavaScript would: a fresh cookie jar, redirects followed only within the allowed origins (never to another
/// host), the sign-in form filled from the script with its hidden fields carried over, then the consent form
/// submitted with the script's button. What ends the walk (a redirect leaving the allowed origins, usually to the
/// client; a page with no form to fill) is the observation the checks judge.
struct SignInBrowser {
    let script: SignInScript
    /// A probe to make on the way, if any.
    var probe: HTTPStepRequest.SignInProbe?
    let allowed: Set<HTTPOrigin>
    /// With `foreign-token`: the other user whose consent form lends its anti-forgery fields.
    var donor: SignInScript?
    /// Set on the donor's own walk: stop at the consent form and hand its anti-forgery fields back.
    var harvesting = false
    /// Follow redirects within the allowed origins but submit no form: what the server does unasked.
    var observeOnly = false
    /// Sends one request to an allowed origin.
    let send: (HTTPOrigin, HTTPRequest) -> Result<HTTPResponse, StepExecutor.Problem>

    static let maximumHops = 12
    /// Where a tampered return parameter points: a name that can never resolve (RFC 2606 `.invalid`).
    static let foreignReturn = "https://appflip-open-redirect.invalid/landing"
    /// Field names that carry where to go after sign-in.
    static let returnFields = ["next", "return_to", "returnto", "return", "continue", "redirect", "redirect_to", "returnurl", "return_url", "goto", "target"]

    /// Whether a field looks like an anti-forgery token.
    static func isAntiForgery(_ name: String) -> Bool {
        let lower = name.lowercased()
        return ["csrf", "xsrf", "token", "authenticity", "nonce"].contains { lower.byteRange(of: $0) != nil }
    }

    struct Walk: Sendable {
        var response: HTTPResponse
        /// Every response on the way, the last included, as received.
        var visits: [Visit]
        /// The origins the walk could go to: what a page loads from elsewhere is a third party.
        var allowed: Set<HTTPOrigin>
        /// Why the walk stopped early, when it did.
        var note: String?
        /// On a harvesting walk: the consent form's anti-forgery fields, in form order.
        var harvested: [(name: String, value: String)]?

        /// Every response on the way, for the checks on the pages. Read once the walk is over (on the judging
        /// thread when the case is judged apart): nothing here decides where the walk goes next.
        var pages: [PageHop] { visits.map { $0.page(allowed: allowed) } }

        /// One line per hop, for the evidence.
        var hops: [String] { hops(of: pages) }

        /// One line per hop of `pages` (this walk's, made once by the caller), for the evidence.
        func hops(of pages: [PageHop]) -> [String] { pages.map { "\($0.method) \($0.url) → HTTP \($0.status)" } + (note.map { [$0] } ?? []) }
    }

    /// One request of a walk and what came back, kept as received: the URL unredacted, the page's framing headers
    /// and the resources it loads unjudged. `page(allowed:)` makes the hop the checks read.
    struct Visit: Sendable {
        var method: String
        var url: String
        var status: Int
        var frameOptions: [String]
        var contentSecurityPolicies: [String]
        var isPage: Bool
        /// What the page loads (scripts, styles, images, frames), as written in it.
        var resources: [String]
        var location: String?
        /// Set on the request that submitted a probe.
        var probe: String?

        func page(allowed: Set<HTTPOrigin>) -> PageHop {
            let foreign = resources.filter { resource in
                URLReference.resolve(resource, against: url).flatMap { HTTPOrigin.split($0)?.origin }.map { !allowed.contains($0) } ?? false
            }
            var hop = PageHop(method: method, url: Redaction.redact(url: url), status: status,
                              framingDenied: FramingCheck.denies(frameOptions, contentSecurityPolicies).0, isPage: isPage,
                              thirdPartyResources: foreign)
            hop.location = location
            hop.probe = probe
            return hop
        }
    }

    /// The anti-forgery fields the donor's consent form carries for the same authorization request, from a walk of
    /// the donor's own in a fresh cookie jar that stops at that form.
    private func foreignFields(_ first: HTTPRequest, origin: HTTPOrigin) -> Result<[(name: String, value: String)], StepExecutor.Problem> {
        guard let donor else { return .failure(StepExecutor.Problem(message: "no second user signs in to lend a token", notApplicable: true)) }
        var other = SignInBrowser(script: donor, probe: nil, allowed: allowed, send: send)
        other.harvesting = true
        switch other.walk(first, origin: origin) {
        case .failure(let problem):
            return .failure(StepExecutor.Problem(message: "the second user's sign-in failed: " + problem.message))
        case .success(let walk):
            guard let fields = walk.harvested else {
                return .failure(StepExecutor.Problem(message: "the second user's sign-in never reached a consent form: " + walk.hops.suffix(3).joined(separator: "; ")))
            }
            return .success(fields)
        }
    }

    func walk(_ first: HTTPRequest, origin: HTTPOrigin) -> Result<Walk, StepExecutor.Problem> {
        let jar = CookieJar()
        guard probe == .repeatConsent else { return walk(first, origin: origin, jar: jar) }
        // Approve once, then ask again with the same cookies, submitting nothing: the second answer is judged.
        var once = self
        once.probe = nil
        switch once.walk(first, origin: origin, jar: jar) {
        case .failure(let problem):
            return .failure(problem)
        case .success(let approval):
            guard approval.response.headers["Location"]?.contains("code=") == true else {
                return .failure(StepExecutor.Problem(message: "the first approval issued no code, so there is nothing to repeat: "
                                                     + approval.hops.suffix(3).joined(separator: "; ")))
            }
            var again = self
            again.observeOnly = true
            switch again.walk(first, origin: origin, jar: jar) {
            case .failure(let problem):
                return .failure(problem)
            case .success(var second):
                if let index = second.visits.indices.first { second.visits[index].probe = "the same request again in the same session" }
                second.visits = approval.visits + second.visits
                return .success(second)
            }
        }
    }

    private func walk(_ first: HTTPRequest, origin: HTTPOrigin, jar: CookieJar) -> Result<Walk, StepExecutor.Problem> {
        let start = origin
        var request = first
        var origin = origin
        var pages: [Visit] = []
        var signedIn = false
        var consented = false
        var pendingProbe: String?
        for _ in 0..<Self.maximumHops {
            request.headers.fields.removeAll { HTTPHeaders.sameName($0.name, "Cookie") }
            if let cookies = jar.header(origin: origin, target: request.target) { request.headers.append("Cookie", cookies) }
            let response: HTTPResponse
            switch send(origin, request) {
            case .failure(let problem): return .failure(problem)
            case .success(let answer): response = answer
            }
            jar.store(response.headers.values("Set-Cookie"), origin: origin, target: request.target)
            let isPage = (200...299).contains(response.status) && !response.body.isEmpty
            // Each page is read once: for what it loads here, for its forms below.
            let page = isPage ? HTMLDocument(response.body) : nil
            pages.append(Visit(method: request.method, url: origin.description + request.target, status: response.status, frameOptions: response.headers.values("X-Frame-Options"),
                               contentSecurityPolicies: response.headers.values("Content-Security-Policy"), isPage: isPage,
                               resources: page?.resources ?? [], location: response.headers["Location"], probe: pendingProbe))
            pendingProbe = nil
            if (300...399).contains(response.status), let location = response.headers["Location"] {
                guard let next = URLReference.resolve(location, origin: origin, target: request.target), allowed.contains(next.origin) else {
                    return .success(Walk(response: response, visits: pages, allowed: allowed))  // leaves the server: the authorization response
                }
                origin = next.origin
                request = HTTPRequest(method: "GET", target: next.target)
                continue
            }
            guard (200...299).contains(response.status), let page, !observeOnly else { return .success(Walk(response: response, visits: pages, allowed: allowed)) }
            let here = (origin: origin, target: request.target)
            let step: FormStep
            if !signedIn, let form = page.form(matching: script.form) {
                signedIn = true
                step = signInStep(form, on: here)
            } else if !consented, let selector = script.consentForm, let form = page.form(matching: selector) {
                consented = true
                step = consentStep(form, on: here, first: first, start: start)
            } else {
                return .success(Walk(response: response, visits: pages, allowed: allowed))
            }
            switch step {
            case .submit(let nextOrigin, let nextRequest, let probe):
                (origin, request) = (nextOrigin, nextRequest)
                pendingProbe = probe
            case .end(let note, let harvested):
                return .success(Walk(response: response, visits: pages, allowed: allowed, note: note, harvested: harvested))
            case .fail(let problem):
                return .failure(problem)
            }
        }
        return .failure(StepExecutor.Problem(message: "the sign-in took more than \(Self.maximumHops) requests: "
                                             + Walk(response: HTTPResponse(status: 0), visits: pages, allowed: allowed).hops.suffix(4).joined(separator: "; ")))
    }

    /// What the walk does with a form it fills: submit it (saying which probe it carries), stop there, or fail.
    private enum FormStep {
        case submit(HTTPOrigin, HTTPRequest, probe: String?)
        case end(note: String?, harvested: [(name: String, value: String)]?)
        case fail(StepExecutor.Problem)
    }

    /// The sign-in form filled with the script's fields (its return parameters tampered with, for that probe).
    private func signInStep(_ form: HTMLForm, on page: (origin: HTTPOrigin, target: String)) -> FormStep {
        var values = script.fields
        var probeText: String?
        if probe == .tamperReturn {
            let returns = form.fields.map(\.name).filter { Self.returnFields.contains($0.lowercased()) }
            guard !returns.isEmpty else { return .end(note: "the sign-in form has no return parameter to tamper with", harvested: nil) }
            for name in returns { values[name] = Self.foreignReturn }
            probeText = "tampered return parameter (" + returns.joined(separator: ", ") + ")"
        }
        guard let next = submission(form, on: page, values: values, button: nil) else {
            return .fail(StepExecutor.Problem(message: "the sign-in form posts to \(form.action), outside the allowed origins"))
        }
        return .submit(next.0, next.1, probe: probeText)
    }

    /// The consent form submitted with the script's button: as it is, without its anti-forgery fields
    /// (`forge-consent`), with another user's (`foreign-token`), or only read for those fields (harvesting).
    private func consentStep(_ form: HTMLForm, on page: (origin: HTTPOrigin, target: String), first: HTTPRequest, start: HTTPOrigin) -> FormStep {
        let wanted = script.consentButton ?? ""
        let button = form.submitButtons.first { $0.value == wanted || "\($0.name)=\($0.value)" == wanted }
        guard button != nil || wanted.isEmpty else {
            return .fail(StepExecutor.Problem(message: "the consent form has no button '\(wanted)' (it has: "
                                              + form.submitButtons.map { "\($0.name)=\($0.value)" }.joined(separator: ", ") + ")"))
        }
        var submitted = form
        var probeText: String?
        let antiForgery = form.fields.filter { $0.type == "hidden" && Self.isAntiForgery($0.name) }
        if harvesting { return .end(note: nil, harvested: antiForgery.map { ($0.name, $0.value) }) }
        if probe == .foreignToken {
            switch foreignFields(first, origin: start) {
            case .failure(let problem): return .fail(problem)
            case .success(let foreign):
                for (name, value) in foreign {
                    if let index = submitted.fields.firstIndex(where: { $0.name == name }) { submitted.fields[index].value = value }
                }
                let names = foreign.map(\.name)
                probeText = "consent with another user's anti-forgery fields (" + (names.isEmpty ? "none found" : names.joined(separator: ", ")) + ")"
            }
        }
        if probe == .forgeConsent {
            let dropped = antiForgery.map(\.name)
            submitted.fields.removeAll { $0.type == "hidden" && Self.isAntiForgery($0.name) }
            probeText = "consent without its anti-forgery fields (" + (dropped.isEmpty ? "none found" : dropped.joined(separator: ", ")) + ")"
        }
        guard let next = submission(submitted, on: page, values: [:], button: button) else {
            return .fail(StepExecutor.Problem(message: "the consent form posts to \(form.action), outside the allowed origins"))
        }
        return .submit(next.0, next.1, probe: probeText)
    }

    /// The request a form submits: its fields with `values` over them, and the pressed button.
    private func submission(_ form: HTMLForm, on page: (origin: HTTPOrigin, target: String), values: [String: String],
                            button: HTMLForm.SubmitButton?) -> (HTTPOrigin, HTTPRequest)? {
        guard let split = URLReference.resolve(form.action, origin: page.origin, target: page.target), allowed.contains(split.origin) else { return nil }
        var pairs = form.fields.map { ($0.name, values[$0.name] ?? $0.value) }
        for (name, value) in values.sorted(by: { $0.key < $1.key }) where !form.fields.contains(where: { $0.name == name }) {
            pairs.append((name, value))
        }
        if let button { pairs.append((button.name, button.value)) }
        let encoded = pairs.map { FormEncoding.encode($0.0) + "=" + FormEncoding.encode($0.1) }.joined(separator: "&")
        if form.method == "POST" {
            let request = HTTPRequest(method: "POST", target: split.target,
                                      headers: HTTPHeaders([("Content-Type", "application/x-www-form-urlencoded")]), body: Array(encoded.utf8))
            return (split.origin, request)
        }
        let path = String(split.target.prefix { $0 != "?" })
        return (split.origin, HTTPRequest(method: "GET", target: path + "?" + encoded))
    }
}
