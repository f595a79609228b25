// https:// goes through the platform's HTTPS stack (URLSession: libcurl on Linux, the system on macOS), because
// the package carries no TLS implementation of its own. This file is the only place that imports
// FoundationNetworking.
import AppFlipBase
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension HTTPClient {
    /// The proxy variables libcurl (the HTTPS stack on Linux) would obey; URLSession offers no way to turn them off
    /// there (`connectionProxyDictionary` is ignored), so the suite clears them from its own environment at start.
    package static let proxyVariables = [
        "http_proxy", "https_proxy", "all_proxy", "no_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY",
        "NO_PROXY",
    ]

    /// Makes every request go straight to the configured target, whatever proxy the environment names: the tool
    /// contacts no host but the target. Handlers are unaffected (they get a minimal environment of their own).
    package static func ignoreEnvironmentProxies() {
        for name in proxyVariables { unsetenv(name) }
    }
}

/// Sends one request at a time over TLS with certificate verification on, never following redirects, within a
/// body limit and the client's timeouts. A request the platform would alter on the way out is refused, not sent.
final class TLSTransport: NSObject, URLSessionDataDelegate, Sendable {
    /// What the delegate's callbacks and the sending thread share of the exchange in flight.
    private struct Exchange {
        var body: [UInt8] = []
        var response: HTTPURLResponse?
        var problem: String?
        /// True when the problem is the platform's, not the target's (the request or answer cannot pass as is).
        var problemIsPlatform = false
        var finished = DispatchSemaphore(value: 0)
        /// The task whose callbacks count; a cancelled earlier task's late callbacks are ignored.
        var current: Int?
        /// The task in flight, so an interruption can cancel it.
        var task: URLSessionDataTask?
    }

    private let exchange = Locked(Exchange())
    private let limits: HTTPLimits
    /// Made once the transport exists (it is the session's delegate); nil once closed.
    private let session = Locked<URLSession?>(nil)

    /// The transports with a request in flight, and whether the run was interrupted (no request starts after).
    private static let registry = Locked((inFlight: [ObjectIdentifier: TLSTransport](), aborted: false))

    /// Ends every https exchange in flight at once and refuses every later one (an interrupted run does not wait
    /// out the platform stack's timeouts).
    static func abortAll() {
        let transports = registry.withLock { registry -> [TLSTransport] in
            registry.aborted = true
            return Array(registry.inFlight.values)
        }
        for transport in transports { transport.interrupt() }
    }

    /// Ends the request in flight: the waiting `send` returns "interrupted" now; the task's late callbacks are ignored.
    private func interrupt() {
        let running = exchange.withLock { exchange -> URLSessionDataTask? in
            guard exchange.current != nil else { return nil }
            exchange.current = nil
            exchange.problem = "the run was interrupted"
            exchange.finished.signal()
            return exchange.task
        }
        running?.cancel()
    }

    init(limits: HTTPLimits, timeouts: HTTPClient.Timeouts) {
        self.limits = limits
        super.init()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeouts.connect
        configuration.timeoutIntervalForResource = timeouts.total
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        session.withLock { $0 = URLSession(configuration: configuration, delegate: self, delegateQueue: queue) }
    }

    func close() {
        // Taken out first: the session's own callbacks never wait on this lock while it is invalidated.
        let closing = session.withLock { session in
            defer { session = nil }
            return session
        }
        closing?.invalidateAndCancel()
    }

    func send(_ request: HTTPRequest, origin: HTTPOrigin, total: Double) throws(HTTPClient.Failure) -> HTTPResponse {
        let intended = origin.description + request.target
        guard let url = URL(string: intended), url.absoluteString == intended else {
            let altered = URL(string: intended)?.absoluteString ?? "(refused)"
            throw HTTPClient.Failure(
                message: "over https the platform HTTPS stack would send \(altered) instead of \(intended), so this request is not sent",
                kind: .inexact)
        }
        if ["GET", "HEAD"].contains(request.method), !request.body.isEmpty {
            throw HTTPClient.Failure(
                message: "over https the platform HTTPS stack refuses a \(request.method) with a body, so this request is not sent",
                kind: .inexact)
        }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method
        for field in request.headers where !["host", "content-length"].contains(field.name.lowercased()) {
            urlRequest.addValue(field.value, forHTTPHeaderField: field.name)
        }
        if !request.body.isEmpty { urlRequest.httpBody = Data(request.body) }
        exchange.withLock { exchange in
            exchange.body = []
            exchange.response = nil
            exchange.problem = nil
            exchange.problemIsPlatform = false
            exchange.finished = DispatchSemaphore(value: 0)
        }
        guard let session = session.withLock({ $0 }) else { throw HTTPClient.Failure(message: "the connection is closed", kind: .other) }
        let task = session.dataTask(with: urlRequest)
        exchange.withLock { exchange in
            exchange.current = task.taskIdentifier
            exchange.task = task
        }
        let admitted = Self.registry.withLock { registry -> Bool in
            guard !registry.aborted else { return false }
            registry.inFlight[ObjectIdentifier(self)] = self
            return true
        }
        guard admitted else { throw HTTPClient.Failure(message: "the run was interrupted", kind: .other) }
        defer {
            _ = Self.registry.withLock { $0.inFlight.removeValue(forKey: ObjectIdentifier(self)) }
            exchange.withLock { $0.task = nil }
        }
        task.resume()
        if exchange.withLock({ $0.finished }).wait(timeout: .now() + total + 1) == .timedOut {
            task.cancel()
            throw HTTPClient.Failure(message: "no complete response within \(total) s", kind: .other)
        }
        let (problem, isPlatform, response, body) = exchange.withLock { ($0.problem, $0.problemIsPlatform, $0.response, $0.body) }
        if let problem { throw HTTPClient.Failure(message: problem, kind: isPlatform ? .inexact : .other) }
        guard let response else { throw HTTPClient.Failure(message: "no response", kind: .other) }
        var headers = HTTPHeaders()
        for (name, value) in response.allHeaderFields {
            headers.append(String(describing: name), String(describing: value))
        }
        headers.fields.sort { $0.name.lowercased() < $1.name.lowercased() }
        return HTTPResponse(status: response.statusCode, headers: headers, body: body)
    }

    // MARK: URLSessionDataDelegate

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(nil)  // a redirect is the observation, never followed
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        // Server trust keeps the platform's verification (the constant's value on Darwin; swift-corelibs-foundation
        // does not declare it). An HTTP authentication challenge (a 401 with WWW-Authenticate) is taken over by the
        // platform stack, which cannot hand the 401 back unanswered: the exchange is reported as not observable.
        if challenge.protectionSpace.authenticationMethod == "NSURLAuthenticationMethodServerTrust" {
            completionHandler(.performDefaultHandling, nil)
            return
        }
        exchange.withLock { exchange in
            if exchange.current == task.taskIdentifier {
                exchange.problem =
                    "over https the platform HTTPS stack takes over a 401 with WWW-Authenticate "
                    + "(\(challenge.protectionSpace.authenticationMethod)) and cannot return it as sent, so this answer cannot be judged"
                exchange.problemIsPlatform = true
            }
        }
        completionHandler(.cancelAuthenticationChallenge, nil)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        exchange.withLock { exchange in if exchange.current == dataTask.taskIdentifier { exchange.response = response as? HTTPURLResponse } }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let over = exchange.withLock { exchange -> Bool in
            guard exchange.current == dataTask.taskIdentifier else { return false }
            exchange.body += data
            if exchange.body.count > limits.maximumBodyBytes {
                exchange.problem = "the body exceeds \(limits.maximumBodyBytes) bytes"
                return true
            }
            return false
        }
        if over { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        exchange.withLock { exchange in
            guard exchange.current == task.taskIdentifier else { return }
            if let error, exchange.problem == nil { exchange.problem = Self.describe(error) }
            exchange.finished.signal()
        }
    }

    /// The most specific message an NSError chain carries ("SSL certificate problem: …", "timed out").
    static func describe(_ error: any Error) -> String {
        let nsError = error as NSError
        if nsError.code == NSURLErrorTimedOut { return "no complete response in time (\(nsError.localizedDescription))" }
        var current: NSError? = nsError
        while let candidate = current {
            if let text = candidate.userInfo[NSLocalizedDescriptionKey] as? String, !text.isEmpty, text != "(null)" {
                return "TLS/HTTP failure: \(text)"
            }
            current = candidate.userInfo[NSUnderlyingErrorKey] as? NSError
        }
        return "TLS/HTTP failure: \(nsError.domain) \(nsError.code)"
    }
}
