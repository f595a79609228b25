import AppFlipBase
import AppFlipDefects
import AppFlipHTTP
import AppFlipReferenceServer
import Foundation

/// The broken servers `appflip-reference serve --defect` ships, for the in-process tests: each catalog entry with its
/// behaviour, wrapping a reference server set up as `ReferenceClient` says.
package enum BrokenServers {
    package struct Defect: Sendable, CustomStringConvertible {
        package var name: String
        /// The requirements a run against this server must report as failed.
        package var fails: Set<String>
        /// The SHOULD requirements a run against it must warn under.
        package var warns: Set<String>
        package var wrap: @Sendable (@escaping HTTPServer.Handler) -> HTTPServer.Handler
        package var description: String { name }
    }

    /// The ones a server in this process shows: not those that need the real sign-in pages, a TLS port that also
    /// answers http, settings of their own, or an Android activity minting its codes (detection runs those as
    /// `appflip-reference serve --defect`).
    package static let all: [Defect] = ServerDefects.all.filter { entry in
        entry.role == .defect && !entry.signsInThroughPages && !entry.fails.allSatisfy({ $0.hasPrefix("AF-ANDR-") })
            && ServerDefectBehaviours.plainHTTP(for: entry.name, { _ in HTTPResponse(status: 500) }) == nil
            && ServerDefectBehaviours.configuration(for: entry.name, ShippedServers.configuration).codeLifetime
                == ShippedServers.configuration.codeLifetime
    }.map { entry in
        Defect(name: entry.name, fails: entry.fails, warns: entry.warns, wrap: ShippedServers.wrap(entry.name))
    }
}

/// The correct servers of another design `appflip-reference serve --defect` ships (the catalog's variants).
package enum VariantServers {
    package struct Variant: Sendable, CustomStringConvertible {
        package var name: String
        /// What the sources allow, in one sentence.
        package var allowance: String
        package var wrap: @Sendable (@escaping HTTPServer.Handler) -> HTTPServer.Handler
        package var description: String { name }
    }

    package static let all: [Variant] = ServerDefects.all.filter { $0.role == .variant }.map { entry in
        Variant(name: entry.name, allowance: entry.summary, wrap: ShippedServers.wrap(entry.name))
    }

    /// A variant for the sign-in pages (the cases above sign users in by headers, so cookies never come into play):
    /// it passes every case when users sign in through the pages.
    package static let cookiesInAnotherStyle = Variant(
        name: "cookies-in-another-style", allowance: "RFC 6265 §5.2 reads attribute names without case; §5.3 lets Max-Age win over an earlier Expires"
    ) { reference in
        { request in
            // Each cookie as another framework writes it: attributes lower-cased and in another order, with an Expires
            // already past (as a server whose clock lags writes it) before the Max-Age that keeps the cookie alive.
            var response = reference(request)
            let cookies = response.headers.values("Set-Cookie")
            guard !cookies.isEmpty else { return response }
            response.headers.fields.removeAll { $0.name == "Set-Cookie" }
            for cookie in cookies {
                let pair = cookie.split(separator: ";", maxSplits: 1).first.map(String.init) ?? cookie
                response.headers.append("Set-Cookie", pair + "; expires=Thu, 01 Jan 1970 00:00:01 GMT; samesite=lax; max-age=3600; httponly; path=/")
            }
            return response
        }
    }
}

enum ShippedServers {
    static let configuration = ReferenceServerConfiguration(clientID: ReferenceClient.id, clientSecret: ReferenceClient.secret)

    /// The shipped behaviour `name`, for a server set up as the HTTP profile tests set theirs up.
    static func wrap(_ name: String) -> @Sendable (@escaping HTTPServer.Handler) -> HTTPServer.Handler {
        guard let behaviour = ServerDefectBehaviours.behaviour(name, configuration: configuration) else {
            return { _ in { _ in HTTPResponse(status: 500, body: Array("no shipped behaviour \(name)\n".utf8)) } }
        }
        return behaviour.wrap
    }
}

/// The client the HTTP profile tests configure at the reference server.
package enum ReferenceClient {
    package static let id = SuiteRun.configuration.clientID
    package static let secret = "test-secret-value"
}

/// Answers remembered per key, shared between a server's request threads.
package final class AnswerMemory: Sendable {
    private let answers = Locked<[String: HTTPResponse]>([:])

    package init() {}

    package func remember(_ response: HTTPResponse, for key: String) { answers.withLock { $0[key] = response } }
    package func answer(for key: String) -> HTTPResponse? { answers.withLock { $0[key] } }
}
