#if canImport(COpenSSL)
    import AppFlipSystem
    import COpenSSL

    /// OpenSSL's reasons, in words a report can show.
    enum TLSError {
        /// The oldest error on this thread's OpenSSL error queue (the queue cleared), as "what: reason".
        static func last(_ what: String) -> SocketError {
            let code = ERR_get_error()
            ERR_clear_error()
            return SocketError(.tls, code == 0 ? what : "\(what): \(reason(code))")
        }

        /// OpenSSL's text for an error code.
        static func reason(_ code: UInt) -> String {
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            // "error:0A000086:SSL routines::certificate verify failed": the words after the last colons.
            return text.split(separator: ":", omittingEmptySubsequences: false).last.map(String.init) ?? text
        }
    }
#endif
