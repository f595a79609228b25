/// Splits text into lines the way the parser counts them.
package enum SourceLines {
    /// Lines without their endings. LF and CR LF both end a line; `"\r\n"` is a single `Character` in Swift, so
    /// splitting on `"\n"` alone would miss it.
    package static func split(_ text: String) -> [String] {
        text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).map(String.init)
    }

    /// Line `number` (from 1) of `bytes` without its ending, as `split` would give it, or "" past the end: found
    /// by scanning when a diagnostic needs it, so a file that loads cleanly is never split into lines for it.
    package static func line(_ number: Int, of bytes: [UInt8]) -> String {
        guard number >= 1 else { return "" }
        var start = 0
        for _ in 1..<number {
            guard let newline = bytes[start...].firstIndex(of: 0x0A) else { return "" }
            start = newline + 1
        }
        var end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.endIndex
        if end > start, bytes[end - 1] == 0x0D, end < bytes.endIndex { end -= 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}
