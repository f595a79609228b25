import AppFlipBase
import AppFlipModel
import Foundation

/// Where a command writes: standard output for results, standard error for diagnostics and progress.
package struct Console: Sendable {
    /// Where standard output's lines go, and standard error's (each is ended there).
    package var writeOut: @Sendable (String) -> Void
    package var writeErr: @Sendable (String) -> Void
    /// Writes to standard error exactly as given, no newline added: the progress line and colours, built from
    /// text already neutralised. Defaults to `err` (which adds the newline) for consoles that are not terminals.
    package var rawErr: @Sendable (String) -> Void
    /// Whether standard error is a terminal (progress is then updated in place, colours are on by default).
    package var errIsTerminal: Bool

    package init(
        out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void,
        rawErr: (@Sendable (String) -> Void)? = nil, errIsTerminal: Bool = false
    ) {
        writeOut = out
        writeErr = err
        self.rawErr = rawErr ?? err
        self.errIsTerminal = errIsTerminal
    }

    package static let standard = Console(
        // A closed pipe (`| head`) must not crash the run: write errors are ignored, never trapped. Everything is
        // neutralised first: case IDs, handler output and server text cannot drive the terminal.
        out: { try? FileHandle.standardOutput.write(contentsOf: Data((TerminalText.neutralize($0) + "\n").utf8)) },
        err: { try? FileHandle.standardError.write(contentsOf: Data((TerminalText.neutralize($0) + "\n").utf8)) },
        rawErr: { try? FileHandle.standardError.write(contentsOf: Data($0.utf8)) },
        errIsTerminal: isatty(STDERR_FILENO) != 0)
}

extension Console {
    /// A line (or the suite's own lines) on standard output: values in it stay on their line (`ConsoleText`).
    package func out(_ text: ConsoleText) { writeOut(text.text) }

    /// A line on standard error, likewise.
    package func err(_ text: ConsoleText) { writeErr(text.text) }
}
