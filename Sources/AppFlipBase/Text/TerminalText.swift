/// Text safe to print on a terminal: nothing from a case file, a handler or a server can move the cursor, recolour,
/// retitle or reorder what a person reads. Control characters (other than line feed and tab) show as `\x1B`-style
/// escapes, C1 controls as `\u{9B}`, and bidirectional controls by name (`<U+202E>`), as the reports show them.
package enum TerminalText {
    package static func neutralize(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F {
                if scalar == "\n" || scalar == "\t" {
                    result.unicodeScalars.append(scalar)
                } else {
                    result += "\\x" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16, uppercase: true)
                }
            } else if (0x80...0x9F).contains(scalar.value) {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else if isBidiControl(scalar) {
                result += "<U+" + String(scalar.value, radix: 16, uppercase: true) + ">"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// `neutralize`d text kept on one line: a line feed shows as `\n`, so text from outside cannot start a line of
    /// its own on the console (a forged verdict line).
    package static func inline(_ text: String) -> String {
        let neutral = neutralize(text)
        guard neutral.utf8.contains(0x0A) else { return neutral }
        return neutral.replacingOccurrences(of: "\n", with: "\\n")
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\n" && scalar != "\t") || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value)
            || isBidiControl(scalar)
    }

    /// U+061C, U+200E-200F, U+202A-202E, U+2066-2069: characters that change the display order of text.
    package static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
