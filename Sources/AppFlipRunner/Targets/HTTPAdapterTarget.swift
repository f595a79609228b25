import AppFlipHTTP
import AppFlipModel
import AppFlipSystem
import Foundation

/// A JSON Lines adapter behind an HTTP endpoint: each request of its contract is `POST`ed as JSON to one URL,
/// and the response body is the contract's JSON answer. Traffic goes to that URL's origin only.
package struct HTTPAdapterTarget: ExchangeTarget {
    package var origin: HTTPOrigin
    /// The request target, e.g. `/appflip/handle`.
    package var target: String
    package var limits: HTTPLimits
    package var connectTimeout: Double
    /// The run's names and trust (`--resolve`, `--ca-file`).
    package var network: Network

    /// Nil when `url` is not an absolute http(s) URL without userinfo.
    package init?(
        url: String, network: Network = .system, limits: HTTPLimits = HTTPLimits(maximumBodyBytes: 1 << 20), connectTimeout: Double = 5
    ) {
        guard let (origin, target) = HTTPOrigin.split(url) else { return nil }
        self.origin = origin
        self.network = network
        self.target = target
        self.limits = limits
        self.connectTimeout = connectTimeout
    }

    package var description: String { "HTTP POST \(origin)\(target)" }

    /// Whether the handler's origin takes a TCP connection (nothing is sent).
    package func preflight(timeout: Double) -> String? {
        do throws(SocketError) {
            let socket = try TCPSocket.connect(
                host: origin.host, port: origin.port, deadline: Platform.monotonicSeconds() + min(5, timeout), mapping: network.hosts)
            socket.close()
            return nil
        } catch {
            return "\(origin) could not be reached (\(error.message))"
        }
    }

    package func makeSession() -> any ExchangeSession {
        HTTPAdapterSession(target: self)
    }
}

final class HTTPAdapterSession: ExchangeSession {
    private let target: HTTPAdapterTarget
    private var client: HTTPClient?

    init(target: HTTPAdapterTarget) {
        self.target = target
    }

    func close() {
        client?.close()
        client = nil
    }

    func exchange(_ request: HandlerRequest, timeout: Double) -> TargetExchange {
        let client: HTTPClient
        if let existing = self.client {
            client = existing
        } else {
            do {
                client = try HTTPClient(
                    origin: target.origin, network: target.network, limits: target.limits,
                    timeouts: HTTPClient.Timeouts(connect: min(target.connectTimeout, timeout), total: timeout))
            } catch {
                return TargetExchange(failure: error.message)
            }
            self.client = client
        }
        client.timeouts.total = timeout
        var line = request.jsonLine
        line.removeLast()  // the body is the JSON object; the newline only frames lines on a pipe
        let post = HTTPRequest(
            method: "POST", target: target.target,
            headers: HTTPHeaders([("Content-Type", "application/json"), ("Accept", "application/json")]), body: line)
        let response: HTTPResponse
        do {
            response = try client.send(post)
        } catch {
            return TargetExchange(failure: error.message)
        }
        let raw = TargetExchange.raw(response.body)
        let log = "HTTP \(response.status) \(response.reason)"
        guard response.status == 200 else {
            return TargetExchange(failure: "the handler answered HTTP \(response.status), not 200 with a JSON answer", rawAnswer: raw, log: log)
        }
        var body = response.body
        while let last = body.last, last == 0x0A || last == 0x0D || last == 0x20 { body.removeLast() }
        return AnswerParser.exchange(AnswerParser.Line(body), for: request, rawAnswer: raw, log: log)
    }
}
