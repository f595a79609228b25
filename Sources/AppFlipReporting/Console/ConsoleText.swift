import AppFlipBase
import AppFlipModel

/// What the console prints: the suite's own words as written, and every value interpolated into them kept on its
/// line. A case ID, a server's message, a manifest field or a handler's output is shown with its line feeds as `\n`
/// (and every other control character escaped, `TerminalText`), so nothing a target or a file says can start a
/// line of its own, such as a forged "conformant (exit 0)".
package struct ConsoleText: ExpressibleByStringInterpolation, Sendable {
    /// The text to print (the console neutralises it once more and ends the line).
    package private(set) var text: String

    package init(stringLiteral value: String) {
        text = value
    }

    package init(stringInterpolation: Interpolation) {
        text = stringInterpolation.text
    }

    private init(text: String) {
        self.text = text
    }

    /// The suite's own text as written, line feeds and all (usage, help): never a value from outside.
    package static func suite(_ text: String) -> ConsoleText { ConsoleText(text: text) }

    /// These texts, one line each.
    package static func lines(_ lines: [ConsoleText]) -> ConsoleText {
        ConsoleText(text: lines.map(\.text).joined(separator: "\n"))
    }

    package static func + (lhs: ConsoleText, rhs: ConsoleText) -> ConsoleText { ConsoleText(text: lhs.text + rhs.text) }

    package struct Interpolation: StringInterpolationProtocol {
        fileprivate var text = ""

        package init(literalCapacity: Int, interpolationCount: Int) {
            text.reserveCapacity(literalCapacity + 16 * interpolationCount)
        }

        package mutating func appendLiteral(_ literal: String) {
            text += literal
        }

        /// A value: kept on its line.
        package mutating func appendInterpolation(_ value: some CustomStringConvertible) {
            text += TerminalText.inline(value.description)
        }

        /// Console text already made safe.
        package mutating func appendInterpolation(_ value: ConsoleText) {
            text += value.text
        }
    }
}
