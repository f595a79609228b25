import AppFlipDigest
import AppFlipModel
import AppFlipRedaction
import AppFlipTestSupport
import Testing

@testable import AppFlipBase

@Suite("Form encoding, queries and URLs")
struct EncodingTests {
    @Test("Encoding keeps only unreserved characters and uses upper-case hex")
    func encode() {
        #expect(FormEncoding.encode("a+b c&d=é~._-") == "a%2Bb%20c%26d%3D%C3%A9~._-")
        #expect(FormEncoding.encode("") == "")
    }

    @Test("Every byte encodes as RFC 3986 §2.1 spells it, from any sequence, and decodes back")
    func encodeEveryByte() {
        let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
        let all = (0...255).map(UInt8.init)
        let expected = all.map {
            unreserved.contains($0) ? String(UnicodeScalar($0)) : "%" + (($0 < 16 ? "0" : "") + String($0, radix: 16).uppercased())
        }
        .joined()
        #expect(FormEncoding.encode(all) == expected)
        #expect(FormEncoding.encode(all[...]) == expected, "a slice")
        #expect(FormEncoding.encode(AnySequence(all)) == expected, "a sequence with no contiguous storage")
        #expect(FormEncoding.decode(expected) == all)
    }

    @Test("Appending a text's encoding to a buffer writes what encoding it gives, after what the buffer holds")
    func appendEncoding() {
        let text = String(String.UnicodeScalarView((0...0x3FF).compactMap(Unicode.Scalar.init))) + "\u{1F600}\u{FFFD}"
        var buffer = ByteBuffer(capacity: 1)
        buffer.append("kept=")
        FormEncoding.append(encoding: text, to: &buffer)
        FormEncoding.append(encoding: "", to: &buffer)
        #expect(buffer.array == Array(("kept=" + FormEncoding.encode(text)).utf8))
    }

    @Test("Decoding takes '+' as space, either hex case, and rejects broken escapes")
    func decode() {
        #expect(FormEncoding.decode("a+b%2b%2Bc") == Array("a b++c".utf8))
        #expect(FormEncoding.decode("%FF%fe") == [0xFF, 0xFE])
        #expect(FormEncoding.decode("%G1") == nil)
        #expect(FormEncoding.decode("abc%") == nil)
        #expect(FormEncoding.decode("abc%4") == nil)
        #expect(FormEncoding.decode("a+b%2B", plusIsSpace: false) == Array("a+b+".utf8))
        #expect(FormEncoding.decode("") == [])
        #expect(FormEncoding.decode("x=%41%42&y".dropFirst(2).prefix(6)) == Array("AB".utf8), "a slice in the middle")
    }

    @Test("Decoding in place reads as the byte-by-byte iterator read, on 20,000 seeded texts")
    func decodeOracle() {
        func iterated(_ text: String, plusIsSpace: Bool) -> [UInt8]? {
            func hex(_ byte: UInt8) -> UInt8? {
                switch byte {
                case 0x30...0x39: byte - 0x30
                case 0x61...0x66: byte - 0x61 + 10
                case 0x41...0x46: byte - 0x41 + 10
                default: nil
                }
            }
            var result: [UInt8] = []
            var iterator = text.utf8.makeIterator()
            while let byte = iterator.next() {
                switch byte {
                case UInt8(ascii: "+"): result.append(plusIsSpace ? 0x20 : byte)
                case UInt8(ascii: "%"):
                    guard let high = iterator.next().flatMap(hex), let low = iterator.next().flatMap(hex) else { return nil }
                    result.append(high << 4 | low)
                default: result.append(byte)
                }
            }
            return result
        }
        let pieces = ["%", "%2", "%2B", "%2b", "%fF", "%G", "+", "a", "Z", "9", "é", "%C3%A9", " ", "&", "="]
        var random = Mutator(seed: 20_261_128)
        for _ in 0..<20_000 {
            let text = (0..<random.below(12)).map { _ in pieces[random.below(pieces.count)] }.joined()
            for plusIsSpace in [true, false] where FormEncoding.decode(text, plusIsSpace: plusIsSpace) != iterated(text, plusIsSpace: plusIsSpace) {
                Issue.record(
                    "\(text.debugDescription), plusIsSpace \(plusIsSpace): \(String(describing: FormEncoding.decode(text, plusIsSpace: plusIsSpace)))"
                )
                return
            }
        }
    }

    @Test("Query parsing keeps order, repeats and empty values, and skips empty pieces")
    func query() {
        let parameters = QueryParameter.parse(query: "a=1&&a=2&b=&c&d=%ZZ" as Substring)
        #expect(parameters.map(\.nameText) == ["a", "a", "b", "c", "d"])
        #expect(parameters.all(named: "a").map(\.value) == [Array("1".utf8), Array("2".utf8)])
        #expect(parameters[2].value == [])
        #expect(parameters[3].rawValue == nil)
        #expect(parameters[4].value == nil)
    }

    @Test("A query read in one pass parses as the piece-by-piece reading did, on 20,000 seeded queries")
    func queryAgainstOracle() {
        func oracle(_ query: Substring) -> [QueryParameter] {
            query.pieces(separatedBy: UInt8(ascii: "&"), omittingEmpty: true).map { piece in
                let equals = piece.firstIndex(ofByte: UInt8(ascii: "="))
                let name = equals.map { piece[..<$0] } ?? piece
                let value = equals.map { piece[piece.utf8.index(after: $0)...] }
                return QueryParameter(
                    rawName: name, rawValue: value, name: FormEncoding.decode(name), value: value.map { FormEncoding.decode($0) } ?? [])
            }
        }
        let pieces = ["&", "=", "a", "code", "%", "%2", "%41", "%zz", "+", "é", "\u{301}", "=&", "&&", "x=y", "🔑", " "]
        var random = Mutator(seed: 20_261_205)
        for _ in 0..<20_000 {
            let text = (0..<random.below(14)).map { _ in pieces[random.below(pieces.count)] }.joined()
            // A query cut out of a URL (a Substring not at its string's start) as well as one of its own.
            let query = random.below(2) == 0 ? Substring(text) : ("https://h/p?" + text + "#f").dropFirst(12).dropLast(2)
            let (parsed, expected) = (QueryParameter.parse(query: query), oracle(query))
            guard parsed == expected, parsed.map(\.rawName.startIndex) == expected.map(\.rawName.startIndex) else {
                Issue.record("\(query.debugDescription): \(parsed), the oracle \(expected)")
                return
            }
        }
    }

    @Test("URLs split at the first '?' and the first '#', without normalizing")
    func urlParts() {
        let parts = URLParts("HTTPS://Host:443/a/b?x=1?y#frag?z")
        #expect(parts.base == "HTTPS://Host:443/a/b")
        #expect(parts.query == "x=1?y")
        #expect(parts.fragment == "frag?z")
        #expect(URLParts("https://h/p#a?b").query == nil)
        #expect(URLParts("https://h/p?a b").queryIsURISafe == false)
        #expect(URLParts("https://h/p?a=%20&b=c/d:e@f").queryIsURISafe)
    }

    @Test("Delimiters are octets: a combining mark after '?', '#', '&' or '=' does not hide it (it would as a Character)")
    func delimitersAreBytes() {
        let mark = "\u{301}"
        let parts = URLParts("https://h/p?\(mark)a=1&\(mark)b=\(mark)2#\(mark)f")
        #expect(parts.base == "https://h/p")
        #expect(parts.query?.utf8.elementsEqual("\(mark)a=1&\(mark)b=\(mark)2".utf8) == true)
        #expect(parts.fragment?.utf8.elementsEqual("\(mark)f".utf8) == true)
        let parameters = parts.parameters
        #expect(parameters.count == 2)
        #expect(parameters.map { $0.name.map { Array($0) } } == [Array("\(mark)a".utf8), Array("\(mark)b".utf8)])
        #expect(parameters.last?.value == Array("\(mark)2".utf8))
        // The same split in redaction: the code after '=' is replaced, the mark with it, and nothing else.
        let redacted = Redaction.redact(url: "https://h/p?x=1&code=\(mark)abcdef")
        #expect(redacted.hasPrefix("https://h/p?x=1&code=‹redacted"), "\(redacted)")
        #expect(!redacted.unicodeScalars.contains("\u{301}"))
        #expect("a&&b&".pieces(separatedBy: UInt8(ascii: "&"), omittingEmpty: false) == ["a", "", "b", ""])
        #expect("&a&&b&".pieces(separatedBy: UInt8(ascii: "&"), omittingEmpty: true) == ["a", "b"])
        #expect("".pieces(separatedBy: UInt8(ascii: "&"), omittingEmpty: false) == [""])
    }
}

@Suite("SHA-256")
struct SHA256Tests {
    @Test("NIST FIPS 180-4 example vectors")
    func nistVectors() {
        #expect(SHA256.hexDigest(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hexDigest([UInt8]()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            SHA256.hexDigest(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            SHA256.hexDigest([UInt8](repeating: 0x61, count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("Input split across updates hashes the same as in one piece")
    func incremental() {
        var hasher = SHA256()
        for chunk in ["ab", "", "c"] { hasher.update(Array(chunk.utf8)) }
        #expect(hasher.finalize() == SHA256.hash(Array("abc".utf8)))
    }

    @Test("A copy hashes on by itself (the library's context is not shared), and a finished hasher starts again empty")
    func valueSemantics() {
        var first = SHA256()
        first.update(Array("ab".utf8))
        var second = first
        first.update(Array("c".utf8))
        second.update(Array("d".utf8))
        #expect(first.finalize() == SHA256.hash(Array("abc".utf8)))
        #expect(second.finalize() == SHA256.hash(Array("abd".utf8)))
        first.update(Array("abc".utf8))
        #expect(first.finalize() == SHA256.hash(Array("abc".utf8)))
        // More than one chunk of a sequence without contiguous storage (4,096 bytes a call to the library).
        let long = (0..<10_000).map { UInt8(truncatingIfNeeded: $0) }
        #expect(SHA256.hash(long.lazy.map { $0 }) == SHA256.hash(long))
        #expect(SHA256.hexDigest(long) == "3421d9aa928a94decb191ab8e8b76c1d8434bf602c5b3ba10ad42f54c8199c34")  // Python hashlib
    }

    @Test("A finished hasher, finished again or copied, starts empty; a one-shot digest equals the hasher's")
    func finishedAndOneShot() {
        var hasher = SHA256()
        hasher.update(Array("abc".utf8))
        #expect(hasher.finalize() == SHA256.hash(Array("abc".utf8)))
        #expect(hasher.finalize() == SHA256.hash([UInt8]()))
        hasher.update(Array("ab".utf8))
        _ = hasher.finalize()
        var copy = hasher
        copy.update(Array("x".utf8))
        #expect(copy.finalize() == SHA256.hash(Array("x".utf8)))
        #expect(hasher.finalize() == SHA256.hash([UInt8]()))
        let bytes = (0..<200).map { UInt8($0) }
        for length in 0...bytes.count {
            let message = Array(bytes.prefix(length))
            let digest = message.withUnsafeBytes { input in SHA256.withDigest(of: input) { Array($0) } }
            #expect(digest == SHA256.hash(message), "length \(length)")
        }
    }

    @Test("Every length around the block and padding boundaries: in blocks, byte by byte and split anywhere, the same digest")
    func blockBoundaries() {
        let vector = "1901da1c9f699b48f6b2636e65cbf73abf99d0441ef67f5c540a42f7051dec6f"  // bytes 0 to 199 (Python hashlib)
        let bytes = (0..<200).map { UInt8($0) }
        #expect(SHA256.hexDigest(bytes) == vector)
        for length in 0...bytes.count {
            let message = Array(bytes.prefix(length))
            let whole = SHA256.hash(message)
            // A lazy sequence has no contiguous storage: it takes the byte-by-byte path.
            #expect(SHA256.hash(message.lazy.map { $0 }) == whole, "length \(length)")
            for split in [1, 55, 56, 63, 64, 65, 128] where split < length {
                var hasher = SHA256()
                hasher.update(message[..<split])
                hasher.update(message[split...])
                #expect(hasher.finalize() == whole, "length \(length) split at \(split)")
            }
        }
    }
}

@Suite("base64url and PKCE")
struct PKCETests {
    @Test("RFC 7636 Appendix B: the verifier's S256 challenge")
    func appendixB() {
        let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
        #expect(PKCE.s256Challenge(for: verifier) == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        #expect(PKCE.isValidVerifier(verifier))
    }

    @Test("RFC 7636 Appendix B: the verifier is the base64url of the 32 octets given there")
    func appendixBOctets() {
        let octets: [UInt8] = [
            116, 24, 223, 180, 151, 153, 224, 37, 79, 250, 96, 125, 216, 173, 187, 186, 22, 212, 37, 77,
            105, 214, 191, 240, 91, 88, 5, 88, 83, 132, 141, 121,
        ]
        #expect(Base64URL.encode(octets) == "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
        #expect(Base64URL.decode("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk") == octets)
    }

    @Test("RFC 4648 §10 vectors, unpadded, and rejection of other alphabets")
    func rfc4648() {
        let vectors = ["": "", "f": "Zg", "fo": "Zm8", "foo": "Zm9v", "foob": "Zm9vYg", "fooba": "Zm9vYmE", "foobar": "Zm9vYmFy"]
        for (plain, encoded) in vectors {
            #expect(Base64URL.encode(Array(plain.utf8)) == encoded)
            #expect(Base64URL.decode(encoded) == Array(plain.utf8))
        }
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
        #expect(Base64URL.decode("a+b/") == nil)
        #expect(Base64URL.decode("Zg==") == nil)
        #expect(Base64URL.decode("Z") == nil)
    }

    @Test("Verifier syntax: length 43 to 128, unreserved characters only")
    func verifierSyntax() {
        #expect(!PKCE.isValidVerifier(String(repeating: "a", count: 42)))
        #expect(PKCE.isValidVerifier(String(repeating: "a", count: 128)))
        #expect(!PKCE.isValidVerifier(String(repeating: "a", count: 129)))
        #expect(!PKCE.isValidVerifier(String(repeating: "a", count: 42) + "+"))
    }
}

@Suite("Byte search")
struct ByteSearchTests {
    @Test("Finds the first occurrence on UTF-8 bytes, in strings and in slices, or says there is none")
    func search() {
        #expect("abc code=1".byteRange(of: "code=").map { "abc code=1"[$0] } == "code=")
        #expect("aaab".byteRange(of: "aab").map { "aaab".utf8.distance(from: "aaab".startIndex, to: $0.lowerBound) } == 1)
        #expect("café=ünï".byteRange(of: "ünï").map { "café=ünï"[$0] } == "ünï")
        #expect("abc".byteRange(of: "abcd") == nil)
        #expect("abc".byteRange(of: "x") == nil)
        #expect("".byteRange(of: "a") == nil)
        #expect("abc".byteRange(of: "")?.isEmpty == true)
        #expect("xyz".byteRange(of: "z").map { "xyz"[$0] } == "z")
        let text = "code=1 and code=2"
        let slice = text[text.index(text.startIndex, offsetBy: 6)...]
        #expect(slice.byteRange(of: "code=").map { text[$0.lowerBound...] } == "code=2")
        // A combining mark after the marker: Foundation's search skips it, the byte search does not.
        #expect("x code=\u{301}abc".containsBytes("code="))
    }

    @Test("The search agrees with a naive one on 20,000 seeded texts and needles, whole and sliced")
    func agreesWithNaiveSearch() {
        func naive(_ text: [UInt8], _ needle: [UInt8]) -> Int? {
            guard needle.count <= text.count else { return nil }
            return (0...(text.count - needle.count)).first { text[$0..<$0 + needle.count].elementsEqual(needle) }
        }
        let pieces = ["a", "b", "ab", "aab", "=", "é", "c", "code=", " "]
        var random = Mutator(seed: 42)
        for _ in 0..<20_000 {
            let text = (0..<random.below(12)).map { _ in pieces[random.below(pieces.count)] }.joined()
            let needle = (0..<(1 + random.below(3))).map { _ in pieces[random.below(pieces.count)] }.joined()
            let found = text.byteRange(of: needle).map { text.utf8.distance(from: text.startIndex, to: $0.lowerBound) }
            #expect(found == naive(Array(text.utf8), Array(needle.utf8)), "\(needle) in \(text)")
            let cut = text.utf8.index(text.startIndex, offsetBy: random.below(text.utf8.count + 1))
            guard cut == text.startIndex || text.unicodeScalars.indices.contains(cut) || cut == text.endIndex else { continue }
            let slice = text[cut...]
            let inSlice = slice.byteRange(of: needle).map { slice.utf8.distance(from: slice.startIndex, to: $0.lowerBound) }
            #expect(inSlice == naive(Array(slice.utf8), Array(needle.utf8)), "\(needle) in the slice \(slice)")
        }
    }

    @Test("A credential after a marker followed by a combining mark is still hidden")
    func markerBeforeCombiningMark() {
        let scrubbed = Redaction.scrubText("redirect to https://h/?code=\u{301}SplxlOBeZQQYbYS6WxSbIA&state=x")
        #expect(!scrubbed.contains("SplxlOBeZQQYbYS6WxSbIA"), "\(scrubbed)")
        #expect(scrubbed.contains("&state=x"))
    }
}

@Suite("Space trimming")
struct SpaceTrimmingTests {
    @Test("The same as Foundation's trimmingCharacters(in: .whitespaces), whatever the ends")
    func sameAsFoundation() {
        let ends = ["", " ", "\t", "\u{A0}", "\u{2003}", "\u{200B}", "\u{3000}", "\n", "\r", "x", "é", "\u{301}", "DENY", "'self'"]
        for left in ends {
            for right in ends {
                for middle in ["", "a", "frame-ancestors 'none'", " a b ", "\u{A0}"] {
                    let text = left + middle + right
                    #expect(text.trimmingSpaces() == text.trimmingCharacters(in: .whitespaces), "\(text.debugDescription)")
                    let framed = "<" + text + ">"
                    let inner = framed[framed.unicodeScalars.index(after: framed.startIndex)..<framed.unicodeScalars.index(before: framed.endIndex)]
                    #expect(inner.trimmingSpaces() == text.trimmingCharacters(in: .whitespaces))
                }
            }
        }
    }
}
