import AppFlipModel
import Foundation

/// Where a command writes: standard output for results, standard error for diagnostics and progress.
public struct Console: Sendable {
    public var out: @Sendable (String) -> Void
    public var err: @Sendable (String) -> Void

    public init(out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void) {
        self.out = out
        self.err = err
    }

    public static let standard = Console(
        // A closed pipe (`| head`) must not crash the run: write errors are ignored, never trapped. Everything is
        // neutralised first: case IDs, handler output and server text cannot drive the terminal.
        out: { try? FileHandle.standardOutput.write(contentsOf: Data((TerminalText.neutralize($0) + "\n").utf8)) },
        err: { try? FileHandle.standardError.write(contentsOf: Data((TerminalText.neutralize($0) + "\n").utf8)) })
}
