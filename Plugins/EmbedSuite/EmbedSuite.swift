import Foundation
import PackagePlugin

/// Compiles the suite's case files and requirement catalog into the target that uses this plugin (the
/// `AppFlipSuiteFiles` target, whose directory is `Conformance/`), so the built binary and any package depending on
/// the library carry the suite and need no paths.
///
/// The files are the target's own, so SwiftPM re-plans when one is added or removed and re-embeds when one changes.
@main
struct EmbedSuite: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        guard let sourceModule = target as? SourceModuleTarget else { return [] }
        let root = context.package.directoryURL.appendingPathComponent("Conformance")
        let inputs = sourceModule.sourceFiles.map(\.url)
            .filter { $0.pathExtension == "case" || $0.lastPathComponent == "requirements.catalog" }
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("EmbeddedSuiteFiles+Contents.swift")
        let tool = try context.tool(named: "suite-embedder").url
        let commit = context.pluginWorkDirectoryURL.appendingPathComponent("EmbeddedSuiteFiles+Commit.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(inputs.count) suite files", executable: tool,
                arguments: [root.path, output.path], inputFiles: inputs, outputFiles: [output]),
            .buildCommand(
                displayName: "Recording the source commit", executable: tool,
                arguments: ["--source-commit", context.package.directoryURL.path, commit.path],
                inputFiles: Self.gitFiles(of: context.package.directoryURL), outputFiles: [commit]),
        ]
    }

    /// The files whose change moves the checkout's commit (HEAD, the ref it names, the packed refs), so the commit
    /// is read again after a commit or a checkout and not on every build. suite-embedder resolves them.
    private static func gitFiles(of root: URL) -> [URL] {
        var directory = root.appendingPathComponent(".git")
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) else { return [] }
        if !isDirectory.boolValue,
            let line = try? String(contentsOf: directory, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines),
            line.hasPrefix("gitdir:")
        {
            let path = line.dropFirst("gitdir:".count).trimmingCharacters(in: .whitespaces)
            directory = path.hasPrefix("/") ? URL(fileURLWithPath: path) : root.appendingPathComponent(path)
        }
        var files = [directory.appendingPathComponent("HEAD")]
        var common = directory
        if let path = try? String(contentsOf: directory.appendingPathComponent("commondir"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        {
            common = path.hasPrefix("/") ? URL(fileURLWithPath: path) : directory.appendingPathComponent(path)
        }
        files.append(common.appendingPathComponent("packed-refs"))
        if let head = try? String(contentsOf: directory.appendingPathComponent("HEAD"), encoding: .utf8), head.hasPrefix("ref:") {
            let ref = head.dropFirst("ref:".count).trimmingCharacters(in: .whitespacesAndNewlines)
            files += [directory.appendingPathComponent(ref), common.appendingPathComponent(ref)]
        }
        return files.filter { FileManager.default.fileExists(atPath: $0.path) }
    }
}
