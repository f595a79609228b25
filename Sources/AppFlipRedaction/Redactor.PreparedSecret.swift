extension Redactor {
    /// A secret with every form it is found in worked out (`SecretNeedles`, and each needle's anchor): what adding it
    /// to a redactor costs that depends on the value alone, so it can be done apart from the redactor (a worker's
    /// thread works out the secrets of an answer while its judging thread, which adds them, judges the one before).
    package struct PreparedSecret: Sendable {
        let text: String
        let bytes: [UInt8]
        let forms: [Form]

        /// A needle, and how an escaped form of it is recognised before its escapes are decoded.
        struct Form: Sendable {
            var needle: SecretNeedles.Needle
            var anchor: Anchor
        }

        enum Anchor: Sendable {
            /// Every byte of the needle is one no escaper changes: found raw or not at all.
            case unescaped
            /// The needle's longest run of such bytes (four or more), found raw wherever an escaped form is.
            case run([UInt8])
            /// No such run of four: a text with escapes is decoded whatever it holds.
            case none
        }

        /// Nil for a value shorter than `SecretNeedles.shortest`, hidden by its name only: its bytes would match
        /// ordinary text.
        package init?(_ secret: String) {
            let bytes = Array(secret.utf8)
            guard bytes.count >= SecretNeedles.shortest else { return nil }
            text = secret
            self.bytes = bytes
            forms = Redactor.needles(of: secret, bytes: bytes).compactMap { needle in
                guard needle.bytes.count >= 2 else { return nil }
                guard !needle.bytes.allSatisfy(Redactor.isUnescaped) else { return Form(needle: needle, anchor: .unescaped) }
                let anchor = Redactor.longestUnescapedRun(needle.bytes)
                return Form(needle: needle, anchor: anchor.count >= 4 ? .run(anchor) : .none)
            }
        }
    }
}
