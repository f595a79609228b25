/// "Did you mean" suggestions by edit distance.
package enum Suggestion {
    /// The candidate closest to `word`, if it is close enough to be a plausible typo.
    package static func closest(to word: String, among candidates: [String]) -> String? {
        let lowered = word.lowercased()
        var best: (String, Int)?
        for candidate in candidates {
            let distance = editDistance(lowered, candidate.lowercased())
            if distance <= max(1, candidate.count / 3), best.map({ distance < $0.1 }) ?? true {
                best = (candidate, distance)
            }
        }
        return best?.0
    }

    /// Edit distance over characters, a swap of two neighbours counting one edit (optimal string alignment): `rnu`
    /// is one typo away from `run`.
    package static func editDistance(_ lhs: String, _ rhs: String) -> Int {
        let a = Array(lhs)
        let b = Array(rhs)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var rows = [Array(0...b.count)]
        for i in 1...a.count {
            var row = Array(repeating: 0, count: b.count + 1)
            row[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                row[j] = min(rows[i - 1][j] + 1, row[j - 1] + 1, rows[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    row[j] = min(row[j], rows[i - 2][j - 2] + 1)
                }
            }
            rows.append(row)
        }
        return rows[a.count][b.count]
    }
}
