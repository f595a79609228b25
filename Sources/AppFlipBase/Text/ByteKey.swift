import Foundation

/// A text as a dictionary key by its UTF-8 bytes: hashed in one go and compared with `memcmp`.
///
/// A `String` key hashes and compares by canonical equivalence, scalar by scalar once the text holds anything beyond
/// ASCII (every redaction placeholder's `‹›` does), which is several times the cost of the bytes; and it takes two
/// texts that are equivalent but not the same bytes for one, where a memo or a table must give back the very bytes
/// it was given. For the memos and tables on the per-case path.
package struct ByteKey: Hashable, Sendable {
    package let text: String

    @inlinable
    package init(_ text: String) {
        self.text = text
    }

    @inlinable
    package func hash(into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    @inlinable
    package static func == (left: ByteKey, right: ByteKey) -> Bool {
        let (one, other) = (left.text.utf8, right.text.utf8)
        guard one.count == other.count else { return false }
        let same = one.withContiguousStorageIfAvailable { first in
            other.withContiguousStorageIfAvailable { second -> Bool in
                guard let a = first.baseAddress, let b = second.baseAddress else { return true }  // both empty
                return memcmp(a, b, first.count) == 0
            }
        }
        return (same ?? nil) ?? one.elementsEqual(other)
    }
}
