/// How many lines a Markdown report takes on screen before anything is unfolded: the measure behind "a one-bug
/// report fits on three screens" (a screen being 50 lines). Lines inside `<details>` are not counted (the summary
/// line is), blank lines and table separators are not, link targets and markup are removed, text wraps at 120
/// columns, a table row counts at most two lines, and a heading one extra for its spacing.
package enum RenderedLines {
    package static func count(_ markdown: String) -> Int {
        var depth = 0
        var lines = 0
        for raw in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("<details") {
                if depth == 0 { lines += wrapped(rendered(line)) }
                depth += 1
                continue
            }
            if line.hasPrefix("</details") {
                depth -= 1
                continue
            }
            if line.hasPrefix("```") { continue }  // a fence line shows as the block's border
            guard depth == 0, !line.isEmpty, !line.allSatisfy({ "|:- ".contains($0) }) else { continue }
            var count = wrapped(rendered(line))
            if line.hasPrefix("|") { count = min(count, 2) }
            if line.hasPrefix("#") { count += 1 }
            lines += count
        }
        return lines
    }

    private static func wrapped(_ text: String) -> Int { max(1, (text.count + 119) / 120) }

    /// The text a reader sees: `[text](url)` as `text`, no HTML tags, no emphasis or code marks, no escapes.
    private static func rendered(_ line: String) -> String {
        var result = ""
        var index = line.startIndex
        while index < line.endIndex {
            let character = line[index]
            if character == "]", line.index(after: index) < line.endIndex, line[line.index(after: index)] == "(",
                let close = line[index...].firstIndex(of: ")")
            {
                index = line.index(after: close)
                continue
            }
            if character == "<", let close = line[index...].firstIndex(of: ">") {
                index = line.index(after: close)
                continue
            }
            if !"*`\\[".contains(character) { result.append(character) }
            index = line.index(after: index)
        }
        return result
    }
}
