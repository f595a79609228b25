/// Bounds that keep a misbehaving peer from costing unbounded memory or time.
package struct HTTPLimits: Sendable, Hashable {
    /// The status or request line plus all header lines.
    package var maximumHeadBytes: Int
    package var maximumHeaderCount: Int
    /// The decoded body.
    package var maximumBodyBytes: Int

    package init(maximumHeadBytes: Int = 64 * 1024, maximumHeaderCount: Int = 200, maximumBodyBytes: Int = 8 * 1024 * 1024) {
        self.maximumHeadBytes = maximumHeadBytes
        self.maximumHeaderCount = maximumHeaderCount
        self.maximumBodyBytes = maximumBodyBytes
    }
}

/// A message that could not be read, said precisely.
package struct HTTPError: Error, Sendable, CustomStringConvertible {
    package var message: String

    package init(_ message: String) {
        self.message = message
    }

    package var description: String { message }
}
