/// Text with one `1️⃣` marker standing where a diagnostic is expected; the marker is removed from the text.
///
/// Tests mark positions in the input instead of computing line and column by hand.
package struct MarkedText {
    package var text: String
    /// 1-based line and column of the marker.
    package var line: Int
    package var column: Int

    package init(_ marked: String, marker: String = "1️⃣") {
        var line = 1
        var column = 1
        var found = false
        var text = ""
        var rest = Substring(marked)
        while !rest.isEmpty {
            if rest.hasPrefix(marker), !found {
                found = true
                rest = rest.dropFirst(marker.count)
                continue
            }
            let character = rest.removeFirst()
            text.append(character)
            if !found {
                if character == "\n" {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
            }
        }
        precondition(found, "MarkedText needs a \(marker) marker")
        self.text = text
        self.line = line
        self.column = column
    }
}
