import AppFlipBase
import AppFlipHTTP
import Foundation

/// The reference client's loopback redirect listener: bound to 127.0.0.1 only, on an ephemeral port, answering one
/// callback and then closed (RFC 8252 §7.3, §8.3).
final class LoopbackListener: @unchecked Sendable {
    private let server: HTTPServer
    private let arrived = DispatchSemaphore(value: 0)
    private let target = Locked<String?>(nil)

    var port: Int { server.port }

    /// `silent`: a broken listener that takes the browser's request and never answers it, nor tells the app.
    init(host: String = "127.0.0.1", silent: Bool = false) throws {
        let box = CallbackBox()
        server = try HTTPServer(host: host, port: 0) { request in
            if silent {
                Thread.sleep(forTimeInterval: 30)
                return HTTPResponse(status: 500, headers: HTTPHeaders(), body: [])
            }
            box.record(request.target)
            return HTTPResponse(
                status: 200, headers: HTTPHeaders([("Content-Type", "text/plain; charset=utf-8")]),
                body: Array("Signed in. You can close this window.".utf8))
        }
        box.listener = self
        server.start()
    }

    fileprivate func received(_ target: String) {
        let first = self.target.withLock { kept -> Bool in
            guard kept == nil else { return false }
            kept = target
            return true
        }
        if first { arrived.signal() }
    }

    /// The request target of the first callback, or nil after `timeout` seconds.
    func awaitCallback(timeout: Double) -> String? {
        _ = arrived.wait(timeout: .now() + timeout)
        return target.withLock { $0 }
    }

    func stop() { server.stop() }
}

/// Forwards the server's callbacks to the listener once it exists (the server is built first).
private final class CallbackBox: @unchecked Sendable {
    weak var listener: LoopbackListener?
    func record(_ target: String) { listener?.received(target) }
}
