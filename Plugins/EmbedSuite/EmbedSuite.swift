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
        return [.buildCommand(displayName: "Embedding \(inputs.count) suite files",
                              executable: try context.tool(named: "suite-embedder").url,
                              arguments: [root.path, output.path],
                              inputFiles: inputs, outputFiles: [output])]
    }
}
