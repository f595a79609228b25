import AppFlipBase
import AppFlipChecks
import AppFlipHTTP
import AppFlipModel
import AppFlipRedaction
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
    /// Whether the user is one whose sign-in succeeds (every scenario but a disabled account's): only then is a walk
    /// that ends at the sign-in pages short of the authorization logic (`Walk.unfinished`).
    var expectsSignIn = true
    /// Sends one request to an allowed origin.
    let send: (HTTPOrigin, HTTPRequest) -> Result<HTTPResponse, StepExecutor.Problem>

    static let maximumHops = 12
    /// Where a tampered return parameter points: a name that can never resolve (RFC 2606 `.invalid`).
    static let foreignReturn = "https://appflip-open-redirect.invalid/landing"
    /// Field names that carry where to go after sign-in.
    static let returnFields = [
        "next", "return_to", "returnto", "return", "continue", "redirect", "redirect_to", "returnurl", "return_url", "goto", "target",
    ]

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
        /// Where the walk stopped when it ended short of an answer of the authorization logic (`Progress.unfinished`):
        /// the case's end judges nothing unless Google's valid request, walked the same way, gets past that point.
        var unfinished: String?
        /// Whether the last redirect left the allowed origins: the authorization response reached the client.
        var left = false

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
            var hop = PageHop(
                method: method, url: Redaction.redact(url: url), status: status,
                framingDenied: FramingPolicy.denies(frameOptions, contentSecurityPolicies).0, isPage: isPage,
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
                return .failure(
                    StepExecutor.Problem(
                        message: "the second user's sign-in never reached a consent form: " + walk.hops.suffix(3).joined(separator: "; ")))
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
                return .failure(
                    StepExecutor.Problem(
                        message: "the first approval issued no code, so there is nothing to repeat: "
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
        let authorization = (origin: origin, path: Self.path(of: first.target))
        var request = first
        var origin = origin
        var navigation = BrowserNavigation.opened
        var progress = Progress(authorization: authorization)
        var pendingProbe: String?
        for hop in 0..<Self.maximumHops {
            if hop > 0 { request = navigation.apply(to: request, origin: origin) }
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
            progress.visits.append(
                Visit(
                    method: request.method, url: origin.description + request.target, status: response.status,
                    frameOptions: response.headers.values("X-Frame-Options"),
                    contentSecurityPolicies: response.headers.values("Content-Security-Policy"), isPage: isPage,
                    resources: page?.resources ?? [], location: response.headers["Location"], probe: pendingProbe))
            progress.arrived(at: origin, target: request.target)
            pendingProbe = nil
            if (300...399).contains(response.status), let location = response.headers["Location"] {
                guard let next = URLReference.resolve(location, origin: origin, target: request.target), allowed.contains(next.origin) else {
                    return .success(progress.walk(response: response, allowed: allowed, left: true))  // leaves the server: the authorization response
                }
                navigation = navigation.redirected(from: origin, to: next.origin, policyHeader: response.headers.values("Referrer-Policy"))
                request = Self.redirected(request, status: response.status, to: next.target)
                origin = next.origin
                continue
            }
            guard (200...299).contains(response.status), let page, !observeOnly else {
                return .success(progress.walk(response: response, allowed: allowed, page: page, script: observeOnly || !expectsSignIn ? nil : script))
            }
            let here = (origin: origin, target: request.target)
            let step: FormStep
            if progress.signInSubmission == nil, let form = page.form(matching: script.form) {
                step = signInStep(form, on: here)
                progress.submittedSignIn()
            } else if !progress.consented, let selector = script.consentForm, let form = page.form(matching: selector) {
                progress.consented = true
                step = consentStep(form, on: here, first: first, start: authorization.origin)
            } else {
                return .success(progress.walk(response: response, allowed: allowed, page: page, script: expectsSignIn ? script : nil))
            }
            switch step {
            case .submit(let nextOrigin, let nextRequest, let probe):
                // A form submitted from this page: a navigation of its own, under the page's referrer policy.
                let policy = ReferrerPolicy.parse(response.headers.values("Referrer-Policy") + page.referrerPolicies) ?? .browserDefault
                navigation = .submission(from: here.origin, target: here.target, policy: policy)
                (origin, request) = (nextOrigin, nextRequest)
                pendingProbe = probe
            case .end(let note, let harvested):
                var walk = progress.walk(response: response, allowed: allowed)
                walk.note = note
                walk.harvested = harvested
                return .success(walk)
            case .fail(let problem):
                return .failure(problem)
            }
        }
        return .failure(
            StepExecutor.Problem(
                message: "the sign-in took more than \(Self.maximumHops) requests: "
                    + Walk(response: HTTPResponse(status: 0), visits: progress.visits, allowed: allowed).hops.suffix(4).joined(separator: "; ")))
    }

    /// A request's path: its target up to the query.
    static func path(of target: String) -> String {
        // By bytes: a Character reading tests grapheme breaks at every character of every hop's target.
        target.utf8.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }.map { String(target[..<$0]) } ?? target
    }

    /// The request a browser sends to follow a redirect (WHATWG Fetch §4.4, "HTTP-redirect fetch", step 12): 307 and
    /// 308 keep the method and the body; 301 and 302 turn a POST into a GET, 303 anything but GET and HEAD; a GET
    /// carries no body or content headers.
    static func redirected(_ request: HTTPRequest, status: Int, to target: String) -> HTTPRequest {
        if status == 307 || status == 308 {
            var same = request
            same.target = target
            return same
        }
        let keepsMethod = request.method == "HEAD" || (request.method != "POST" && status != 303)
        var next = HTTPRequest(method: keepsMethod ? request.method : "GET", target: target)
        if keepsMethod, !request.body.isEmpty {
            next.body = request.body
            if let type = request.headers["Content-Type"] { next.headers.append("Content-Type", type) }
        }
        return next
    }

    /// What a walk has done so far: the pages, whether the user signed in and consented, and whether the
    /// authorization endpoint answered since the sign-in, which decides whether its end is the authorization logic's.
    struct Progress {
        let authorization: (origin: HTTPOrigin, path: String)
        var visits: [Visit] = []
        /// The index in `visits` of the sign-in form's submission, once made.
        var signInSubmission: Int?
        var consented = false
        /// Set when the authorization endpoint (its origin and path) answered a request since the sign-in.
        var reachedSinceSignIn = false

        init(authorization: (origin: HTTPOrigin, path: String)) { self.authorization = authorization }

        mutating func submittedSignIn() {
            signInSubmission = visits.count
            reachedSinceSignIn = false
        }

        mutating func arrived(at origin: HTTPOrigin, target: String) {
            if signInSubmission != nil, origin == authorization.origin, SignInBrowser.path(of: target) == authorization.path {
                reachedSinceSignIn = true
            }
        }

        /// The walk ending on `response`; `page` and `script` judge whether it ended short of the authorization logic.
        func walk(
            response: HTTPResponse, allowed: Set<HTTPOrigin>, left: Bool = false, page: HTMLDocument? = nil,
            script: SignInScript? = nil
        ) -> Walk {
            var walk = Walk(response: response, visits: visits, allowed: allowed)
            walk.left = left
            if !left, let script { walk.unfinished = unfinished(page: page, script: script) }
            return walk
        }

        /// Why a walk that ended here may not have reached the authorization logic: the sign-in form's submission led
        /// neither back to the authorization endpoint nor to a consent form (refused, or its form shown again); a
        /// sign-in page the script's selector does not match; a consent page it does not match. Nil otherwise.
        func unfinished(page: HTMLDocument?, script: SignInScript) -> String? {
            guard let last = visits.last else { return nil }
            let ending = "\(last.method) \(Redaction.redact(url: last.url)) → HTTP \(last.status)"
            if let index = signInSubmission, !reachedSinceSignIn, !consented {
                let submitted = visits[index]
                let form = "the sign-in form's \(submitted.method) to \(Redaction.redact(url: submitted.url))"
                if page?.form(matching: script.form) != nil {
                    return form + " showed the sign-in form again (the credentials were not accepted): " + ending
                }
                if index == visits.count - 1 { return form + " was answered HTTP \(last.status)" }
                return form + " led to " + ending + ", not back to the authorization endpoint"
            }
            guard let page, !page.forms.isEmpty else { return nil }
            let forms = page.forms.map { form in form.id.map { "#" + $0 } ?? ("action " + (form.action.isEmpty ? "(this page)" : form.action)) }
            let listed = " (its forms: " + forms.joined(separator: ", ") + ")"
            if signInSubmission == nil, page.forms.contains(where: { $0.fields.contains { $0.type == "password" } }) {
                return "the sign-in page \(ending) has no form matching '\(script.form)'" + listed
            }
            if signInSubmission != nil, !consented, let selector = script.consentForm {
                return "the page after the sign-in, \(ending), has no consent form matching '\(selector)'" + listed
            }
            return nil
        }
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
        // Submitted as pressing Enter in it does: through its default button, the first submit button (HTML §4.10.21.2).
        guard let next = submission(form, on: page, values: values, button: form.submitButtons.first) else {
            return .fail(StepExecutor.Problem(message: "the sign-in form posts to \(form.action), outside the allowed origins"))
        }
        return .submit(next.0, next.1, probe: probeText)
    }

    /// The consent form submitted with the script's button: as it is, without its anti-forgery fields
    /// (`forge-consent`), with another user's (`foreign-token`), or only read for those fields (harvesting).
    private func consentStep(_ form: HTMLForm, on page: (origin: HTTPOrigin, target: String), first: HTTPRequest, start: HTTPOrigin) -> FormStep {
        let wanted = script.consentButton ?? ""
        let button = wanted.isEmpty ? nil : form.button(named: wanted)
        guard button != nil || wanted.isEmpty else {
            let buttons = form.submitButtons.map(\.description).joined(separator: ", ")
            return .fail(
                StepExecutor.Problem(message: "the consent form has no button '\(wanted)' (it has: " + (buttons.isEmpty ? "none" : buttons) + ")"))
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

    /// The request a form submits: its fields with `values` over them, and the pressed button's pair, to the button's
    /// `formaction` and by its `formmethod` where it has them (HTML §4.10.21.3, "form submission algorithm").
    private func submission(
        _ form: HTMLForm, on page: (origin: HTTPOrigin, target: String), values: [String: String],
        button: HTMLForm.SubmitButton?
    ) -> (HTTPOrigin, HTTPRequest)? {
        let action = button?.formAction ?? form.action
        guard let split = URLReference.resolve(action, origin: page.origin, target: page.target), allowed.contains(split.origin) else { return nil }
        var pairs = form.fields.map { ($0.name, values[$0.name] ?? $0.value) }
        for (name, value) in values.sorted(by: { $0.key < $1.key }) where !form.fields.contains(where: { $0.name == name }) {
            pairs.append((name, value))
        }
        if let button { pairs += button.pairs.map { ($0.name, $0.value) } }
        // Encoded into one buffer: `name=value` pairs joined by `&`.
        var encoded = ByteBuffer(capacity: 512)
        for (name, value) in pairs {
            if !encoded.isEmpty { encoded.append(UInt8(ascii: "&")) }
            FormEncoding.append(encoding: name, to: &encoded)
            encoded.append(UInt8(ascii: "="))
            FormEncoding.append(encoding: value, to: &encoded)
        }
        let method = button?.formMethod.map { $0.uppercased() == "POST" ? "POST" : "GET" } ?? form.method
        if method == "POST" {
            let request = HTTPRequest(
                method: "POST", target: split.target,
                headers: HTTPHeaders([("Content-Type", "application/x-www-form-urlencoded")]), body: encoded.array)
            return (split.origin, request)
        }
        let path = split.target.utf8.firstIndex(of: UInt8(ascii: "?")).map { String(split.target[..<$0]) } ?? split.target
        return (split.origin, HTTPRequest(method: "GET", target: path + "?" + encoded.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }))
    }
}
