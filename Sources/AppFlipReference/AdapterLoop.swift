import Foundation

/// Runs a reference app behind a JSON Lines adapter contract: one request per stdin line, one answer per stdout
/// line, in both modes (one-shot: one request, then end of input; persistent: requests until end of input). Each
/// contract's app gives the answer to a line (`LinkHandler+AdapterLoop.swift` and its siblings).
package enum AdapterLoop {
    /// Serves requests from standard input until it closes, answering each with `answer`, or saying on `log` that a
    /// line is ignored (`ignoring`, what the contract's requests are) when it gives none. Returns the exit code.
    package static func serve(
        output: FileHandle = .standardOutput, log: FileHandle = .standardError, ignoring: String,
        answer: (String) -> Data?
    ) -> Int32 {
        while let line = readLine(strippingNewline: true) {
            guard !line.isEmpty else { continue }
            guard let reply = answer(line) else {
                try? log.write(contentsOf: Data("appflip-reference: ignoring a request that is not \(ignoring)\n".utf8))
                continue
            }
            // When the suite has gone away there is nobody left to answer: stop quietly.
            do { try output.write(contentsOf: reply + Data("\n".utf8)) } catch { return 0 }
        }
        return 0
    }
}
