import AppFlipRunner
import AppFlipTestSupport
import Foundation
import Testing

/// An adapter contract's code lives in folders named for it (CONTRIBUTING, "Add an adapter contract"): outside them,
/// only the registries and the case format's own vocabulary name a contract. Held for the Android activity, the
/// contract added last and the one the registry was made for.
@Suite("Adapter contracts in their own folders")
struct ContractLayoutTests {
    /// Every file under `Sources` (relative to the package), with its text.
    private static func sources() throws -> [(path: String, text: String)] {
        let root = PackageRoot.url.path
        let enumerator = try #require(FileManager.default.enumerator(atPath: root + "/Sources"))
        var files: [(String, String)] = []
        while let relative = enumerator.nextObject() as? String {
            guard relative.hasSuffix(".swift") || relative.hasSuffix(".h") else { continue }
            files.append(("Sources/" + relative, try String(contentsOfFile: root + "/Sources/" + relative, encoding: .utf8)))
        }
        return files
    }

    /// The files outside the activity contract's folders that name Android.
    private static func namingAndroid() throws -> [String] {
        try sources().filter { !$0.path.contains("/AndroidActivity/") && $0.text.lowercased().contains("android") }.map(\.path).sorted()
    }

    /// The files outside the native app contract's folders that name its types, its step or its observation.
    private static func namingNativeApp() throws -> [String] {
        // "native" alone also names RFC 8252's native clients, which the authorize and token profiles judge at the
        // partner's server: what is the contract's own is its types, its key, its step and observation cases.
        let words = try Regex(
            #"NativeStep|NativeObservation|NativeClientTarget|NativeCommand|NativeAppContract|NativeClientSession|\.native\b|nativeApp|case native\b|native-client step|native client is configured"#
        ).wordBoundaryKind(.simple)  // by Unicode's boundaries, `.native.` would not end a word
        return try sources().filter { !$0.path.contains("/NativeApp/") && $0.text.contains(words) }.map(\.path).sorted()
    }

    /// The paths CONTRIBUTING's "Add an adapter contract" names.
    private static func contributingPaths() throws -> [String] {
        let contributing = try String(contentsOfFile: PackageRoot.url.path + "/CONTRIBUTING.md", encoding: .utf8)
        let section = try #require(
            contributing.components(separatedBy: "## Add an adapter contract").dropFirst().first?
                .components(separatedBy: "\n## ").first)
        return section.components(separatedBy: "`").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
            .filter { $0.hasPrefix("Sources/") || $0.hasPrefix("Tests/") }
    }

    @Test("At most 18 files outside the activity contract's folders name Android")
    func androidConfined() throws {
        let naming = try Self.namingAndroid()
        #expect(naming.count <= 18, "\(naming.count) files name Android outside Sources/*/AndroidActivity/: \(naming)")
    }

    @Test("At most 18 files outside the native app contract's folders name its types, its step or its observation")
    func nativeConfined() throws {
        let naming = try Self.namingNativeApp()
        #expect(naming.count <= 18, "\(naming.count) files name the native app's contract outside Sources/*/NativeApp/: \(naming)")
    }

    @Test("CONTRIBUTING's list of what a new contract touches names every file outside contract folders that names one")
    func contributingListComplete() throws {
        let listed = Set(try Self.contributingPaths())
        let missing = Set(try Self.namingAndroid() + Self.namingNativeApp()).subtracting(listed).sorted()
        #expect(missing.isEmpty, "CONTRIBUTING's 'Add an adapter contract' does not list \(missing)")
    }

    @Test("Each built-in contract's runner code is in Contracts/<its folder>, and the registry holds the three")
    func runnerFolders() throws {
        let files = try Self.sources().map(\.path)
        for folder in ["LinkHandler", "NativeApp", "AndroidActivity"] {
            #expect(files.contains("Sources/AppFlipRunner/Contracts/\(folder)/\(folder)Contract.swift"), "\(folder)")
        }
        #expect(AdapterContracts.builtIn.all.map(\.key) == [.linkHandler, .nativeApp, .androidActivity])
    }

    @Test("CONTRIBUTING's list of what a new contract adds or touches names files and folders that exist")
    func contributingList() throws {
        let root = PackageRoot.url.path
        let named = try Self.contributingPaths()
        #expect(named.count >= 8, "\(named)")
        for path in named {
            // `<Name>` stands for the new contract's folder: the activity's (in every layer) shows the place exists.
            let concrete = path.replacingOccurrences(of: "<Name>", with: "AndroidActivity")
            #expect(FileManager.default.fileExists(atPath: root + "/" + concrete), "CONTRIBUTING names \(path), which does not exist")
        }
    }
}
