import AppFlipModel
import AppFlipSyntax

/// Reads the integer list an Android check takes (`-1`, `[-2, 0]`), each within `range`.
enum ActivityIntegers {
    static func read(_ node: Node, _ what: String, range: ClosedRange<Int>, reader: inout NodeReader) -> [Int]? {
        guard let scalars = reader.scalarList(node, "'\(what)'") else { return nil }
        var values: [Int] = []
        for scalar in scalars {
            guard let value = Int(scalar.text), range.contains(value) else {
                reader.error(at: scalar.location, "'\(what)' takes integers from \(range.lowerBound) to \(range.upperBound), or a list of them")
                return nil
            }
            if !values.contains(value) { values.append(value) }
        }
        return values.isEmpty ? nil : values
    }

    /// `-1 (RESULT_OK) or 0 (RESULT_CANCELED)`.
    static func either(_ values: [Int], naming name: (Int) -> String = { String($0) }) -> String {
        values.map(name).joined(separator: " or ")
    }
}
