import AppFlipModel
import AppFlipRunner
import Foundation

/// What was tested, as a reviewer can check it: the SHA-256 of each adapter program a run started and of each
/// existing file among its arguments (a script, a configuration it reads), and who ran it where.
package enum AdapterDigests {
    /// A file larger than this is named but not hashed (an adapter is a program or a script, not a data set).
    package static let limit = 512 << 20

    /// The files of the run's adapters, in the contracts' order (`AdapterContracts`); the
    /// suite's own executable (the reference's adapters) by the digest already taken.
    package static func files(of targets: TargetUnderTest, pinned: [String] = [], ownDigest: String?) -> [Provenance.AdapterFile] {
        let programs = targets.contracts.all.compactMap { contract in
            targets.adapters[contract.key]?.program.map { (role: contract.role, executable: $0.executable, arguments: $0.arguments) }
        }
        let own = Bundle.main.executablePath.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path }
        var files: [Provenance.AdapterFile] = []
        for program in programs {
            let resolved = URL(fileURLWithPath: program.executable).resolvingSymlinksInPath().path
            files.append(
                resolved == own
                    ? Provenance.AdapterFile(role: program.role, path: program.executable, sha256: ownDigest)
                    : file(program.role, program.executable))
            for argument in program.arguments where isRegularFile(argument) {
                files.append(file(program.role, argument))
            }
        }
        // The files the adapters depend on that no command line names (`--adapter-file`, `adapter_files`).
        files += pinned.map { file(pinnedRole, $0) }
        // The suite's own stand-ins, by digest: a partner's label on them must not pass for a partner's app. The
        // `appflip-reference` beside this executable is hashed only when a file has its very size (most runs: never).
        let sizes = Set(files.compactMap { file in file.sha256 == nil ? nil : size(of: file.path) })
        let reference = referenceDigests(ownDigest: ownDigest, sizes: sizes)
        return files.map { file in
            var file = file
            file.suiteReference = file.sha256.map(reference.contains) ?? false
            return file
        }
    }

    /// The digests of the suite's own reference adapters as this release has them: its executable (`reference-handler`
    /// and the other internal commands) and the `appflip-reference` executable built beside it, when there; that one
    /// only when one of `sizes` is its size (nil: whatever the sizes).
    package static func referenceDigests(ownDigest: String?, sizes: Set<Int>? = nil) -> Set<String> {
        var digests = Set([ownDigest].compactMap { $0 })
        if let sibling = Sibling.size, sizes?.contains(sibling) ?? true, let digest = Sibling.digest { digests.insert(digest) }
        return digests
    }

    /// The `appflip-reference` beside this executable: its size, read once, and its digest, taken once when asked.
    private enum Sibling {
        static let path: String? = Bundle.main.executablePath.map {
            URL(fileURLWithPath: $0).resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("appflip-reference").path
        }
        static let size: Int? = path.flatMap(AdapterDigests.size(of:))
        static let digest: String? = path.flatMap { path in
            guard case .success(let digest) = FileDigest.sha256(atPath: path, limit: limit) else { return nil }
            return digest
        }
    }

    private static func size(of path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue
    }

    /// The role a pinned file is recorded under.
    package static let pinnedRole = "adapter file"

    private static func isRegularFile(_ path: String) -> Bool {
        guard !path.isEmpty, !path.hasPrefix("-") else { return false }
        return (try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType) == .typeRegular
    }

    private static func file(_ role: String, _ path: String) -> Provenance.AdapterFile {
        switch FileDigest.sha256(atPath: path, limit: limit) {
        case .success(let digest):
            return Provenance.AdapterFile(role: role, path: path, sha256: digest)
        case .failure(.unreadable):
            return Provenance.AdapterFile(role: role, path: path, sha256: nil, problem: "cannot be read")
        case .failure(.larger(let limit)):
            return Provenance.AdapterFile(role: role, path: path, sha256: nil, problem: "larger than \(limit >> 20) MiB")
        }
    }

    /// Who ran the suite: `--operator` when given; else the CI job, by the URL its own variables give; else the user.
    package static func runBy(given: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let given, !given.isEmpty { return given }
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        if value("GITHUB_ACTIONS") == "true", let server = value("GITHUB_SERVER_URL"), let repository = value("GITHUB_REPOSITORY"),
            let run = value("GITHUB_RUN_ID")
        {
            return "GitHub Actions job \(server)/\(repository)/actions/runs/\(run)" + (value("GITHUB_ACTOR").map { " (started by \($0))" } ?? "")
        }
        if let job = value("CI_JOB_URL") { return "GitLab CI job \(job)" + (value("GITLAB_USER_LOGIN").map { " (started by \($0))" } ?? "") }
        if value("JENKINS_URL") != nil, let build = value("BUILD_URL") { return "Jenkins build \(build)" }
        if let build = value("CIRCLE_BUILD_URL") { return "CircleCI job \(build)" }
        if let build = value("BUILDKITE_BUILD_URL") { return "Buildkite build \(build)" }
        return value("USER") ?? value("LOGNAME")
    }
}
