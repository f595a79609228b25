/// Where escaped text is appended: a report's `ByteBuffer`, or a `[UInt8]` (an adapter's request line). The escapers
/// (`JSONText`, XML's) are written once against this and specialized for each.
public protocol ByteAppending: ~Copyable {
    mutating func append(_ byte: UInt8)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>)
}

extension ByteBuffer: ByteAppending {}

extension Array: ByteAppending where Element == UInt8 {
    @inlinable
    public mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) { append(contentsOf: bytes) }
}
