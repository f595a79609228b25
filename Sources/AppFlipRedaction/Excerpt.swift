/// Text cut to a bound for a report: on a character boundary, never inside a placeholder, saying how much was cut.
package enum Excerpt {
    /// Cuts text to `limit` UTF-8 bytes on a character boundary, never inside a placeholder, and says how much was
    /// cut. Cut only what is already redacted (`Redactor.excerpt`): a secret cut before redaction is a prefix that
    /// no longer matches the secret.
    package static func bounded(_ text: String, limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        var cut = ""
        var used = 0
        var placeholderStart: (text: Int, bytes: Int)?
        for character in text {
            let size = character.utf8.count
            if used + size > limit { break }
            if character == "‹" { placeholderStart = (cut.unicodeScalars.count, used) } else if character == "›" { placeholderStart = nil }
            cut.append(character)
            used += size
        }
        if let open = placeholderStart {
            // The cut fell inside a placeholder: it goes whole.
            cut = String(cut.unicodeScalars.prefix(open.text))
            used = open.bytes
        }
        return cut + truncationMark(dropped: text.utf8.count - used)
    }

    /// What follows text cut short: redaction reads the `…` as a cut edge (a secret's first bytes before it are hidden).
    package static func truncationMark(dropped: Int) -> String { "\n… [truncated: \(dropped) more bytes]" }
}
