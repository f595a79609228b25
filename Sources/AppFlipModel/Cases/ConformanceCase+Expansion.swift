/// How many bytes a case's `${repeat:N:TEXT}` variables expand to, so a small file cannot make a run build
/// gigabytes of links: bounded per case and per run when the files are loaded.
extension ConformanceCase {
    /// At most this many bytes of `${repeat}` expansion in one case (every step once, every round of `repeat`).
    package static let maximumExpansion = 8 << 20
    /// At most this many over every case of a run.
    package static let maximumRunExpansion = 128 << 20

    /// The bytes the case's `${repeat}` variables expand to over all its sends.
    package var repeatedBytes: Int {
        let perRound = steps.reduce(0) { total, step in total + step.action.repeatedBytes * step.repeatCount }
        return perRound * repeatCount
    }
}

extension Template {
    /// The bytes this template's `${repeat}` variables expand to.
    var repeatedBytes: Int {
        parts.reduce(0) { total, part in
            if case .variable(.repeat(let count, let text)) = part { return total + count * text.utf8.count }
            return total
        }
    }
}

extension LinkRecipe {
    var repeatedBytes: Int {
        (set + append).reduce(0) { $0 + $1.value.repeatedBytes }
            + [query, fragment, raw].reduce(0) { $0 + ($1?.repeatedBytes ?? 0) }
    }
}

extension HTTPStepRequest {
    var repeatedBytes: Int {
        (query?.repeatedBytes ?? 0) + (form?.repeatedBytes ?? 0) + headers.reduce(0) { $0 + $1.value.repeatedBytes }
            + (authenticationClientID?.repeatedBytes ?? 0) + (authenticationSecret?.repeatedBytes ?? 0)
    }
}
