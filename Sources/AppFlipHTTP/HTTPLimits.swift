/// Bounds that keep a misbehaving peer from costing unbounded memory or time.
public struct HTTPLimits: Sendable, Hashable {
    /// The status or request line plus all header lines.
    public var maximumHeadBytes: Int
    public var maximumHeaderCount: Int
    /// The decoded body.
    public var maximumBodyBytes: Int

    public init(maximumHeadBytes: Int = 64 * 1024, maximumHeaderCount: Int = 200, maximumBodyBytes: Int = 8 * 1024 * 1024) {
        self.maximumHeadBytes = maximumHeadBytes
        self.maximumHeaderCount = maximumHeaderCount
        self.maximumBodyBytes = maximumBodyBytes
    }
}

/// A message that could not be read, said precisely.
public struct HTTPError: Error, Sendable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
