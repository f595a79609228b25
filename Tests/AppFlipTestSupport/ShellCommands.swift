/// The `appflip-conformance` command lines written in a document (the README's shell blocks, a CI template), as
/// argument lists: continuation lines (`\`) and YAML folded blocks (`>`) are joined, words are split the way a
/// POSIX shell splits them (quotes, escapes), and each invocation ends at a shell operator or a comment.
package enum ShellCommands {
    package static func invocations(in text: String) -> [[String]] {
        logicalLines(text).flatMap(invocations(inLine:))
    }

    /// Lines with `\`-continuations joined, and the lines of a YAML `>` block folded into one.
    static func logicalLines(_ text: String) -> [String] {
        var result: [String] = []
        var pending = ""
        var folding: Int?
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            let indent = raw.prefix { $0 == " " }.count
            let trimmed = raw.trimmingCharacters(in: .whitespaces)
            if let level = folding {
                if !trimmed.isEmpty && indent > level {
                    pending += " " + trimmed
                    continue
                }
                result.append(pending)
                pending = ""
                folding = nil
            }
            if trimmed.hasSuffix(">") && (trimmed == "- >" || trimmed.hasSuffix(": >")) {
                folding = indent
                continue
            }
            if trimmed.hasSuffix("\\") {
                pending += String(trimmed.dropLast()) + " "
                continue
            }
            result.append(pending + trimmed)
            pending = ""
        }
        if !pending.isEmpty { result.append(pending) }
        return result
    }

    static func invocations(inLine line: String) -> [[String]] {
        let words = split(line)
        var result: [[String]] = []
        var index = 0
        while index < words.count {
            let word = words[index]
            // The binary by path (`.build/release/appflip-conformance`), or by name where a command starts: first on
            // the line, after an operator, or after `swift run [-c release]`. Not a directory or job of that name.
            let before = words[..<index].map(\.value)
            let commandPosition =
                index == 0 || words[index - 1].isOperator || before.last == "-"
                || (before.contains("swift") && ["run", "release", "debug"].contains(before.last ?? ""))
            // A path to the binary is a command too, but only where a command starts (`cp …/appflip-conformance bin/` is not one).
            guard commandPosition, word.value.hasSuffix("/appflip-conformance") || word.value == "appflip-conformance" else {
                index += 1
                continue
            }
            var arguments: [String] = []
            index += 1
            while index < words.count, !words[index].isOperator {
                arguments.append(words[index].value)
                index += 1
            }
            if !arguments.isEmpty { result.append(arguments) }
        }
        return result
    }

    struct Word {
        var value: String
        var isOperator: Bool
    }

    /// POSIX-style word splitting: quotes group, a backslash escapes, unquoted `|`, `&`, `;`, `#` end a command.
    static func split(_ line: String) -> [Word] {
        var words: [Word] = []
        var current = ""
        var started = false
        var quote: Character?
        var escaped = false
        func finish() {
            if started { words.append(Word(value: current, isOperator: false)) }
            current = ""
            started = false
        }
        for character in line {
            if escaped {
                current.append(character)
                escaped = false
                continue
            }
            if let open = quote {
                if character == open { quote = nil } else if character == "\\" && open == "\"" { escaped = true } else { current.append(character) }
                continue
            }
            switch character {
            case "\\":
                escaped = true
                started = true
            case "'", "\"":
                quote = character
                started = true
            case " ", "\t": finish()
            case "|", "&", ";", "#", "(", ")":
                finish()
                words.append(Word(value: String(character), isOperator: true))
            default:
                current.append(character)
                started = true
            }
        }
        finish()
        return words
    }
}
