import AppFlipBase
import AppFlipDigest
import Foundation
import Testing

/// HMAC-SHA-256 on top of the system's SHA-256: one-shot, and a key whose padded blocks are hashed once and then
/// used for many messages, from many threads (every redaction placeholder of a run is keyed so). Expected values
/// from Python's `hmac` module, an implementation apart from this one.
@Suite("HMAC-SHA-256")
struct HMACTests {
    static func hex(_ bytes: [UInt8]) -> String { SHA256.hex(bytes) }

    @Test("Known codes: a short key, a key of text, a key longer than a block (hashed first), an empty message")
    func knownCodes() {
        #expect(
            Self.hex(HMAC.sha256(key: [UInt8](repeating: 0x0B, count: 20), message: Array("Hi There".utf8)))
                == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        #expect(
            Self.hex(HMAC.sha256(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8)))
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        #expect(
            Self.hex(
                HMAC.sha256(
                    key: [UInt8](repeating: 0xAA, count: 131),
                    message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)))
                == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
        #expect(
            Self.hex(HMAC.sha256(key: (0..<64).map { UInt8($0) }, message: [UInt8]()))
                == "3499f163f48604c0b15ac89e4e7c66f314fb3b203b8ac2f564828e62f6be9d9d")
    }

    @Test("One key gives each message its own code, the same as one-shot, in any order and from many threads at once")
    func keyReused() {
        let key = HMAC.Key(Array("run-key-32-bytes-run-key-32-byte".utf8))
        let expected = [
            "138b49f648ebbbca16599e5a33e2b8e2179e6c5c67b9433a2d9cfcd8b7364d2d",
            "2e6808263ce51ce1bb4bccdefdb1a0f962b37448fd6704caf7ec99f112466111",
            "dc00ade9983e9a2a1af82275c39b67edfa6d01c778db30f66854480f2b3373ed",
        ]
        for index in [2, 0, 1, 0] {
            #expect(Self.hex(key.authenticationCode(for: Array("code-\(index)".utf8))) == expected[index])
        }
        let codes = Codes()
        DispatchQueue.concurrentPerform(iterations: 300) { iteration in
            codes.set(iteration, Self.hex(key.authenticationCode(for: Array("code-\(iteration % 3)".utf8))))
        }
        #expect(codes.all.enumerated().allSatisfy { $0.element == expected[$0.offset % 3] })
    }

    /// The codes the threads made, by iteration.
    final class Codes: @unchecked Sendable {
        private let codes = Locked([String](repeating: "", count: 300))
        func set(_ index: Int, _ code: String) { codes.withLock { $0[index] = code } }
        var all: [String] { codes.withLock { $0 } }
    }
}
