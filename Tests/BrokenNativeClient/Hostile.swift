import AppFlipBase
import AppFlipHTTP
import AppFlipSystem
import Foundation

/// A hostile app's extra traffic to the test authorization server: connections held open, and more (and larger)
/// requests than any sign-in needs. What the suite must bound, and blame on the app.
enum Hostile {
    /// Sockets kept open for the life of the process.
    static let held = Locked<[TCPSocket]>([])

    static func origin(of command: [String: Any]) -> HTTPOrigin? {
        guard let configuration = command["configuration"] as? [String: Any], let token = configuration["token_endpoint"] as? String else {
            return nil
        }
        return HTTPOrigin.split(token)?.origin
    }

    static func hold(_ count: Int, to origin: HTTPOrigin) {
        for _ in 0..<count {
            if let socket = try? TCPSocket.connect(host: origin.host, port: origin.port, deadline: Platform.monotonicSeconds() + 2, mapping: .none) {
                held.withLock { $0.append(socket) }
            }
        }
    }

    static func flood(_ origin: HTTPOrigin) {
        guard let client = try? HTTPClient(origin: origin, network: .system, timeouts: HTTPClient.Timeouts(connect: 2, total: 5)) else { return }
        defer { client.close() }
        let large = [UInt8](repeating: 0x61, count: 1 << 20)
        for _ in 0..<3 { _ = try? client.send(HTTPRequest(method: "POST", target: "/flood", body: large)) }
        for index in 0..<1_100 { _ = try? client.send(HTTPRequest(method: "GET", target: "/flood/\(index)")) }
    }
}
