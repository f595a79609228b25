import AppFlipTestSupport
import Foundation
import Testing

/// CONTRIBUTING says where platform differences live; every conditional compilation on the platform in `Sources` is
/// in one of those places, and CONTRIBUTING names each.
@Suite("Platform differences")
struct PlatformDifferencesTests {
    static let places = [
        "Sources/AppFlipSystem/", "Sources/AppFlipTLS/", "Sources/AppFlipHTTP/TLSTransport.swift",
        "Sources/AppFlipDigest/SHA256.swift", "Sources/AppFlipDigest/Ed25519.swift",
        "Sources/AppFlipConformance/ConformanceCase+Testing.swift",
    ]

    @Test("Every #if os or #if canImport in Sources is in a place CONTRIBUTING names")
    func confined() throws {
        let root = PackageRoot.url.path
        let enumerator = try #require(FileManager.default.enumerator(atPath: root + "/Sources"))
        var outside: [String] = []
        while let relative = enumerator.nextObject() as? String {
            guard relative.hasSuffix(".swift") else { continue }
            let path = "Sources/" + relative
            let text = try String(contentsOfFile: root + "/" + path, encoding: .utf8)
            let conditional = text.split(separator: "\n").contains { line in
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                return trimmed.hasPrefix("#if os(") || trimmed.hasPrefix("#if canImport(") || trimmed.hasPrefix("#elseif os(")
                    || trimmed.hasPrefix("#elseif canImport(")
            }
            if conditional, !Self.places.contains(where: { path.hasPrefix($0) }) { outside.append(path) }
        }
        #expect(outside.isEmpty, "platform conditionals outside the documented places: \(outside)")
        let contributing = try String(contentsOfFile: root + "/CONTRIBUTING.md", encoding: .utf8)
        for place in Self.places {
            let named = place.hasSuffix("/") ? place : String(place.dropFirst("Sources/".count))
            #expect(contributing.contains(named), "CONTRIBUTING does not name \(named)")
        }
    }
}
