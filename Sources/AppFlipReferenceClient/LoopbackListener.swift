import AppFlipBase
import AppFlipHTTP
import Foundation

/// The reference client's loopback redirect listener: bound to 127.0.0.1 only, on an ephemeral port, answering one
/// callback and then closed (RFC 8252 §7.3, §8.3).
final class LoopbackListener: Sendable {
    private let server: HTTPServer
    private let arrived: DispatchSemaphore
    private let target: Locked<String?>

    var port: Int { server.port }

    /// `silent`: a broken listener that takes the browser's request and never answers it, nor tells the app.
    init(host: String = "127.0.0.1", silent: Bool = false) throws {
        // The handler keeps what it receives in the listener's own state, made before the server that calls it.
        let arrived = DispatchSemaphore(value: 0)
        let target = Locked<String?>(nil)
        self.arrived = arrived
        self.target = target
        server = try HTTPServer(host: host, port: 0) { request in
            if silent {
                Thread.sleep(forTimeInterval: 30)
                return HTTPResponse(status: 500, headers: HTTPHeaders(), body: [])
            }
            let first = target.withLock { kept -> Bool in
                guard kept == nil else { return false }
                kept = request.target
                return true
            }
            if first { arrived.signal() }
            return HTTPResponse(
                status: 200, headers: HTTPHeaders([("Content-Type", "text/plain; charset=utf-8")]),
                body: Array("Signed in. You can close this window.".utf8))
        }
        server.start()
    }

    /// The request target of the first callback, or nil after `timeout` seconds.
    func awaitCallback(timeout: Double) -> String? {
        _ = arrived.wait(timeout: .now() + timeout)
        return target.withLock { $0 }
    }

    func stop() { server.stop() }
}
