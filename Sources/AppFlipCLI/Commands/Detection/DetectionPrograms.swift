import AppFlipDefects
import AppFlipTLS
import Foundation

/// The programs a detection run starts, each the one built beside this executable (never one a path, a file or the
/// environment names): the suite itself, `appflip-reference` and the three broken adapters.
struct DetectionPrograms: Sendable {
    var suite: String
    var reference: String
    /// Each family's program (`Defect.Family.program`).
    var carriers: [Defect.Family: String]
    /// Whether the servers speak https (this build serves TLS itself: Linux).
    var https: Bool

    /// The programs beside this executable; the names of those missing when any is.
    static func beside() -> Result<DetectionPrograms, DetectionError> {
        guard let own = Bundle.main.executablePath.map({ URL(fileURLWithPath: $0).resolvingSymlinksInPath() }) else {
            return .failure(DetectionError("cannot tell where this executable is"))
        }
        let directory = own.deletingLastPathComponent()
        let path = { (name: String) in directory.appendingPathComponent(name).path }
        let names = Defect.Family.allCases.map(\.program)
        let missing = names.filter { !FileManager.default.isExecutableFile(atPath: path($0)) }
        guard missing.isEmpty else {
            return .failure(
                DetectionError(
                    "\(missing.joined(separator: ", ")) not found beside \(own.path): build the whole package (swift build), "
                        + "which builds the broken adapters with the suite"))
        }
        return .success(
            DetectionPrograms(
                suite: own.path, reference: path(Defect.Family.server.program),
                carriers: Dictionary(uniqueKeysWithValues: Defect.Family.allCases.map { ($0, path($0.program)) }), https: TLSTrust.isAvailable))
    }
}
