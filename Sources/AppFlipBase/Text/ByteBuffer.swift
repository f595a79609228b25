/// Bytes being written, appended to at the cost of a copy: what a report writer composes each case into. An
/// `Array`'s `append(contentsOf:)` costs about a hundred instructions however few bytes it copies (its generic
/// sequence machinery, a uniqueness check, its growth rules); a report appends a few hundred short pieces a case.
/// Here an append is a capacity check and a copy, and everything on that path is inlinable into the writers of other
/// modules.
///
/// Not copyable: one owner writes it and its memory is freed with it, so no copy can share or outlive it.
///
/// Public, not `package`, as is everything the writers inline (`ByteAppending`, `JSONText.appendString`,
/// `ByteWords`): Swift 6.3 inlines and specializes another module's `@inlinable` code only when it is public; a
/// `package` append stays a call (measured: 46 instructions an append of a literal, against a few inlined).
public struct ByteBuffer: ~Copyable {
    @usableFromInline var start: UnsafeMutablePointer<UInt8>
    @usableFromInline var capacity: Int
    @usableFromInline var written = 0

    /// An empty buffer with room for `capacity` bytes before it grows (it doubles as it needs to).
    public init(capacity: Int = 256) {
        self.capacity = max(capacity, 16)
        start = .allocate(capacity: self.capacity)
    }

    deinit { start.deallocate() }

    /// How many bytes are written.
    public var count: Int { written }
    public var isEmpty: Bool { written == 0 }

    @inlinable @inline(__always)
    public mutating func append(_ byte: UInt8) {
        if written == capacity { grow(toHold: 1) }
        (start + written).initialize(to: byte)
        written += 1
    }

    @inlinable @inline(__always)
    public mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        let count = bytes.count
        if capacity - written < count { grow(toHold: count) }
        let target = UnsafeMutableRawPointer(start + written)
        let from = UnsafeRawPointer(source)
        // Most pieces are a few bytes (a key, a separator, a verdict): copied as two words that may overlap, or four
        // bytes at a time, in place of a call to memcpy that costs more than the copy.
        if count >= 8 && count <= 16 {
            let head = from.loadUnaligned(as: UInt64.self)
            let tail = from.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            target.storeBytes(of: head, as: UInt64.self)
            target.storeBytes(of: tail, toByteOffset: count - 8, as: UInt64.self)
        } else if count >= 4 && count < 8 {
            let head = from.loadUnaligned(as: UInt32.self)
            let tail = from.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
            target.storeBytes(of: head, as: UInt32.self)
            target.storeBytes(of: tail, toByteOffset: count - 4, as: UInt32.self)
        } else if count < 4 {
            for offset in 0..<count { target.storeBytes(of: source[offset], toByteOffset: offset, as: UInt8.self) }
        } else {
            target.copyMemory(from: from, byteCount: count)
        }
        written += count
    }

    /// The suite's own text, as it is.
    @inlinable @inline(__always)
    public mutating func append(_ text: StaticString) {
        // A literal is stored as its UTF-8 bytes; one made from a single scalar may be stored as the scalar.
        guard text.hasPointerRepresentation else { return text.withUTF8Buffer { append($0) } }
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// `text`'s UTF-8 bytes, read where they are when the string is native (a small one's from the stack).
    @inlinable
    public mutating func append(utf8 text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    /// Makes room for `more` bytes past those written, at least doubling.
    @usableFromInline
    mutating func grow(toHold more: Int) {
        let (needed, overflow) = written.addingReportingOverflow(more)
        precondition(!overflow, "ByteBuffer: more bytes than memory can hold")
        let newCapacity = max(needed, capacity > Int.max / 2 ? needed : capacity * 2)
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        bigger.moveInitialize(from: start, count: written)
        start.deallocate()
        start = bigger
        capacity = newCapacity
    }

    /// Lets `body` read what is written.
    public func withUnsafeBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try body(UnsafeBufferPointer(start: start, count: written))
    }

    /// What is written, as an array (a copy).
    public var array: [UInt8] { withUnsafeBytes { Array($0) } }

    /// Empties it, keeping its memory for what is written next.
    public mutating func removeAll() { written = 0 }
}
