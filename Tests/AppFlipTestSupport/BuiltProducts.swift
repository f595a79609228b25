import Foundation

/// Finds executables that SwiftPM built next to the test bundle (`appflip-reference`, `broken-handler`).
package enum BuiltProducts {
    /// The directory holding the build's products.
    package static var directory: URL {
        #if os(macOS)
            if let bundle = Bundle.allBundles.first(where: { $0.bundlePath.hasSuffix(".xctest") }) {
                return bundle.bundleURL.deletingLastPathComponent()
            }
        #endif
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
        return executable.deletingLastPathComponent()
    }

    /// The absolute path of a built executable product.
    package static func path(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }
}
