import AppFlipModel

/// Escaping for Markdown so that text from a target can never forge report structure.
enum MarkdownText {
    /// Text for a table cell or a line of prose: one line, table pipes and Markdown/HTML syntax escaped.
    static func inline(_ value: String, limit: Int = 400) -> String {
        var result = ""
        var count = 0
        for character in value {
            if count >= limit {
                result += "… [truncated]"
                break
            }
            count += 1
            switch character {
            case "\n", "\r", "\r\n", "\t": result += " "
            case "\\", "`", "*", "_", "[", "]", "|", "#", "!", "~", "{", "}": result += "\\" + String(character)
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "&": result += "&amp;"
            default:
                if let scalar = character.unicodeScalars.first, character.unicodeScalars.count == 1,
                   scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value) || isBidiControl(scalar) {
                    // Control and bidirectional-override characters are shown, not obeyed.
                    result += "U+" + String(scalar.value, radix: 16, uppercase: true)
                } else {
                    result.append(character)
                }
            }
        }
        return result
    }

    /// A fenced code block whose fence is longer than any backtick run inside, so content cannot close it.
    static func codeBlock(_ value: String) -> String {
        var longest = 0
        var run = 0
        for character in value {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: max(3, longest + 1))
        // Control characters become U+FFFD; bidirectional controls are named, so they cannot reorder what a
        // reviewer sees (the "Trojan Source" trick).
        var cleaned = ""
        for scalar in value.unicodeScalars {
            if (scalar.value < 0x20 && scalar != "\n" && scalar != "\t") || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value) {
                cleaned += "\u{FFFD}"
            } else if isBidiControl(scalar) {
                cleaned += "<U+" + String(scalar.value, radix: 16, uppercase: true) + ">"
            } else {
                cleaned.unicodeScalars.append(scalar)
            }
        }
        return fence + "text\n" + cleaned + (cleaned.hasSuffix("\n") ? "" : "\n") + fence + "\n"
    }

    static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool { TerminalText.isBidiControl(scalar) }
}
