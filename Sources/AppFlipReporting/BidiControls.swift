/// The bidirectional controls (U+061C, U+200E–200F, U+202A–202E, U+2066–2069) as UTF-8 bytes: a report names each
/// (`<U+202E>`) instead of writing it, so no value a target sent can reorder what a reviewer reads ("Trojan Source":
/// a state `U+202E…U+202C` that shows as `verdict: pass`). Markdown, HTML and XML all ask here.
enum BidiControls {
    /// The control starting at `index` of `bytes` and its UTF-8 width, or nil when none starts there.
    static func control(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (scalar: UInt32, width: Int)? {
        switch bytes[index] {
        case 0xD8:
            guard index + 1 < bytes.count, bytes[index + 1] == 0x9C else { return nil }
            return (0x061C, 2)
        case 0xE2:
            guard index + 2 < bytes.count else { return nil }
            let (second, third) = (bytes[index + 1], bytes[index + 2])
            if second == 0x80, third == 0x8E || third == 0x8F || (0xAA...0xAE).contains(third) {
                return (0x2000 + UInt32(third - 0x80), 3)
            }
            if second == 0x81, (0xA6...0xA9).contains(third) { return (0x2040 + UInt32(third - 0x80), 3) }
            return nil
        default:
            return nil
        }
    }
}
