/// An RFC 8259 reader for what the suite reads once per case (the adapter contract's answer line): the bytes are
/// read where they lie, without Foundation. It accepts one value with optional whitespace around it, numbers by the
/// RFC's grammar, strings without raw control characters and with paired surrogate escapes, nesting at most 512
/// deep, and the whole text valid UTF-8. Decided beside the RFC, so that an answer Foundation's `JSONSerialization`
/// (which read answers before) accepted still reads, now the same on every platform: a leading byte order mark and a
/// comma before a closing `}` or `]` are accepted, as Foundation accepts them on Linux. Where the RFC allows more than
/// Foundation did, the RFC wins: a number too large for a `Double` is still a number (Foundation refused the line).
///
/// A member name repeated in one object (compared decoded: `"a"` and `"\u0061"` are one name) is refused: RFC 8259
/// §4 leaves such a document's meaning to the reader, and readers differ (this one read the first `"outcome"`, jq and
/// Python the last), so a file one tool calls a failure would read as a pass to another. Every document the suite reads
/// for itself (an adapter's answer, results.json, a bundle's manifest) goes through `read` or `check`.
package enum JSONReader {
    package indirect enum Value: Sendable, Equatable {
        /// Members in the order written, each name once.
        case object([Member])
        case array([Value])
        case string(String)
        /// The number as written (its grammar checked).
        case number(String)
        case bool(Bool)
        case null

        /// The member named `name` of an object, or nil (also for any other value).
        package func member(_ name: String) -> Value? {
            guard case .object(let members) = self else { return nil }
            return members.first { $0.name == name }?.value
        }

        package var string: String? {
            if case .string(let text) = self { return text }
            return nil
        }
    }

    package struct Member: Sendable, Equatable {
        package var name: String
        package var value: Value
    }

    package struct Failure: Error, Sendable, Equatable {
        package var message: String
        /// Byte offset where the text stopped being JSON.
        package var offset: Int
        /// Set when the text is JSON but repeats a member name in one object: ambiguous, not malformed.
        package var isRepeatedMember = false
    }

    package static let maximumDepth = 512

    /// The one JSON value `bytes` hold.
    package static func read(_ bytes: [UInt8]) throws(Failure) -> Value {
        try read(bytes, keepingValues: true)
    }

    /// Checks that `bytes` hold one JSON value with no member repeated, building nothing: for a document another
    /// decoder then reads (results.json, a manifest).
    package static func check(_ bytes: [UInt8]) throws(Failure) {
        _ = try read(bytes, keepingValues: false)
    }

    private static func read(_ bytes: [UInt8], keepingValues: Bool) throws(Failure) -> Value {
        guard String(validating: bytes, as: UTF8.self) != nil else { throw Failure(message: "not valid UTF-8", offset: 0) }
        var reader = Cursor(bytes: bytes, keepsValues: keepingValues)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.offset = 3 }
        reader.skipWhitespace()
        let value = try reader.value(depth: 0)
        reader.skipWhitespace()
        guard reader.offset == bytes.count else { throw reader.failure("text after the value") }
        return value
    }

    private struct Cursor {
        let bytes: [UInt8]
        /// Off for `check`: containers are read, not kept.
        let keepsValues: Bool
        var offset = 0

        init(bytes: [UInt8], keepsValues: Bool) {
            self.bytes = bytes
            self.keepsValues = keepsValues
        }

        func failure(_ message: String) -> Failure { Failure(message: message, offset: offset) }

        var current: UInt8? { offset < bytes.count ? bytes[offset] : nil }

        mutating func skipWhitespace() {
            while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { offset += 1 }
        }

        mutating func value(depth: Int) throws(Failure) -> Value {
            guard depth < JSONReader.maximumDepth else { throw failure("nested more than \(JSONReader.maximumDepth) deep") }
            switch current {
            case 0x7B?: return try object(depth: depth)
            case 0x5B?: return try array(depth: depth)
            case 0x22?: return .string(try string())
            case 0x74?:
                try literal("true")
                return .bool(true)
            case 0x66?:
                try literal("false")
                return .bool(false)
            case 0x6E?:
                try literal("null")
                return .null
            case .some(let byte) where byte == 0x2D || (0x30...0x39).contains(byte): return .number(try number())
            case nil: throw failure("the text ends where a value was expected")
            default: throw failure("not the start of a value")
            }
        }

        mutating func literal(_ word: String) throws(Failure) {
            for expected in word.utf8 {
                guard current == expected else { throw failure("not the literal \(word)") }
                offset += 1
            }
        }

        mutating func object(depth: Int) throws(Failure) -> Value {
            offset += 1
            var members: [Member] = []
            var names = Set<String>()
            skipWhitespace()
            if current == 0x7D {
                offset += 1
                return .object(members)
            }
            while true {
                skipWhitespace()
                if current == 0x7D, !members.isEmpty {  // a trailing comma (see above)
                    offset += 1
                    return .object(members)
                }
                guard current == 0x22 else { throw failure("an object member's name must be a string") }
                let nameOffset = offset
                let name = try string()
                guard names.insert(name).inserted else {
                    throw Failure(
                        message: "the member \(ByteText.display(name, limit: 40)) appears twice in one object (readers differ on which one counts)",
                        offset: nameOffset, isRepeatedMember: true)
                }
                skipWhitespace()
                guard current == 0x3A else { throw failure("':' expected after a member's name") }
                offset += 1
                skipWhitespace()
                let value = try value(depth: depth + 1)
                if keepsValues { members.append(Member(name: name, value: value)) }
                skipWhitespace()
                switch current {
                case 0x2C?: offset += 1
                case 0x7D?:
                    offset += 1
                    return .object(members)
                default: throw failure("',' or '}' expected in an object")
                }
            }
        }

        mutating func array(depth: Int) throws(Failure) -> Value {
            offset += 1
            var elements: [Value] = []
            skipWhitespace()
            if current == 0x5D {
                offset += 1
                return .array(elements)
            }
            while true {
                skipWhitespace()
                if current == 0x5D, !elements.isEmpty {  // a trailing comma (see above)
                    offset += 1
                    return .array(elements)
                }
                let element = try value(depth: depth + 1)
                if keepsValues { elements.append(element) }
                skipWhitespace()
                switch current {
                case 0x2C?: offset += 1
                case 0x5D?:
                    offset += 1
                    return .array(elements)
                default: throw failure("',' or ']' expected in an array")
                }
            }
        }

        mutating func number() throws(Failure) -> String {
            let start = offset
            if current == 0x2D { offset += 1 }
            guard let first = current, (0x30...0x39).contains(first) else { throw failure("a digit expected in a number") }
            offset += 1
            if first != 0x30 { digits() }
            if current == 0x2E {
                offset += 1
                guard digits() > 0 else { throw failure("a digit expected after '.'") }
            }
            if current == 0x65 || current == 0x45 {
                offset += 1
                if current == 0x2B || current == 0x2D { offset += 1 }
                guard digits() > 0 else { throw failure("a digit expected in an exponent") }
            }
            return String(decoding: bytes[start..<offset], as: UTF8.self)
        }

        @discardableResult
        mutating func digits() -> Int {
            let start = offset
            while let byte = current, (0x30...0x39).contains(byte) { offset += 1 }
            return offset - start
        }

        mutating func string() throws(Failure) -> String {
            offset += 1
            var text: [UInt8] = []
            var runStart = offset
            while true {
                guard let byte = current else { throw failure("a string is not closed") }
                switch byte {
                case 0x22:
                    text.append(contentsOf: bytes[runStart..<offset])
                    offset += 1
                    return String(decoding: text, as: UTF8.self)
                case 0x5C:
                    text.append(contentsOf: bytes[runStart..<offset])
                    offset += 1
                    try escape(into: &text)
                    runStart = offset
                case 0x00..<0x20:
                    throw failure("a control character inside a string must be escaped")
                default:
                    offset += 1
                }
            }
        }

        mutating func escape(into text: inout [UInt8]) throws(Failure) {
            guard let byte = current else { throw failure("a string ends inside an escape") }
            offset += 1
            switch byte {
            case 0x22, 0x5C, 0x2F: text.append(byte)
            case 0x62: text.append(0x08)
            case 0x66: text.append(0x0C)
            case 0x6E: text.append(0x0A)
            case 0x72: text.append(0x0D)
            case 0x74: text.append(0x09)
            case 0x75:
                var scalar = try hex4()
                if (0xD800...0xDBFF).contains(scalar) {
                    guard current == 0x5C, offset + 1 < bytes.count, bytes[offset + 1] == 0x75 else {
                        throw failure("a high surrogate escape without its low surrogate")
                    }
                    offset += 2
                    let low = try hex4()
                    guard (0xDC00...0xDFFF).contains(low) else { throw failure("a high surrogate escape without its low surrogate") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw failure("a low surrogate escape without its high surrogate")
                }
                guard let unicode = Unicode.Scalar(scalar) else { throw failure("an escape that is no character") }
                text.append(contentsOf: String(unicode).utf8)
            default:
                throw failure("an unknown escape")
            }
        }

        mutating func hex4() throws(Failure) -> UInt32 {
            var value: UInt32 = 0
            for _ in 0..<4 {
                guard let byte = current else { throw failure("four hex digits expected after \\u") }
                let digit: UInt32
                switch byte {
                case 0x30...0x39: digit = UInt32(byte - 0x30)
                case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
                case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
                default: throw failure("four hex digits expected after \\u")
                }
                value = value << 4 | digit
                offset += 1
            }
            return value
        }
    }
}

extension JSONReader.Value {
    /// The value written back as compact JSON (members in the order read), for evidence of values kept unread.
    package var jsonText: String {
        var output: [UInt8] = []
        append(to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    private func append(to output: inout [UInt8]) {
        switch self {
        case .object(let members):
            output.append(0x7B)
            for (index, member) in members.enumerated() {
                if index > 0 { output.append(0x2C) }
                JSONText.appendString(member.name, to: &output)
                output.append(0x3A)
                member.value.append(to: &output)
            }
            output.append(0x7D)
        case .array(let items):
            output.append(0x5B)
            for (index, item) in items.enumerated() {
                if index > 0 { output.append(0x2C) }
                item.append(to: &output)
            }
            output.append(0x5D)
        case .string(let text): JSONText.appendString(text, to: &output)
        case .number(let text): output.append(contentsOf: Array(text.utf8))
        case .bool(let value): output.append(contentsOf: Array((value ? "true" : "false").utf8))
        case .null: output.append(contentsOf: Array("null".utf8))
        }
    }
}
