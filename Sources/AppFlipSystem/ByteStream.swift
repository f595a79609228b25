/// A connection's bytes as HTTP reads and writes them: plain (`TCPSocket`) or over TLS (`TLSStream`). Not shared
/// between threads.
package protocol ByteStream: AnyObject {
    /// Writes every byte before `deadline` (monotonic seconds).
    func write(_ bytes: [UInt8], deadline: Double) throws(SocketError)
    /// Appends up to `maximum` bytes to `buffer` and returns how many; 0 means the peer closed its end. With
    /// `waitFirst`, waits for data before the first attempt.
    func read(appendingTo buffer: inout [UInt8], maximum: Int, waitFirst: Bool, deadline: Double) throws(SocketError) -> Int
    /// True when the peer has closed or sent something unexpected while the connection sat idle.
    var isStale: Bool { get }
    /// True once a read ended with the connection closed in a way that cannot tell the end of the data from a cut:
    /// over TLS, a close without the peer's close_notify (RFC 8446 §6.1). A plain TCP close tells nothing more.
    var endedWithoutCloseNotify: Bool { get }
    func close()
}

extension TCPSocket: ByteStream {
    package var endedWithoutCloseNotify: Bool { false }
}
