import AppFlipCLI
import AppFlipModel
import AppFlipSyntax
import AppFlipTestSupport
import Foundation
import Testing

/// Every command the README and the documentation show and every command a CI template runs is one the suite
/// accepts; the templates are well-formed; Google's callers are given as the suite calls with them.
@Suite("Documentation and CI templates")
struct ExamplesTests {
    private func read(_ path: String) throws -> String {
        try String(contentsOfFile: PackageRoot.url.appendingPathComponent(path).path, encoding: .utf8)
    }

    @Test("Every appflip-conformance command in the documents' shell blocks parses", arguments: PackageRoot.documents + ["CONTRIBUTING.md"])
    func readme(_ file: String) throws {
        let text = try read(file)
        var blocks: [String] = []
        var current: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line.hasPrefix("```sh") || line.hasPrefix("```bash") || line.hasPrefix("```shell") {
                current = ""
            } else if let block = current {
                if line.hasPrefix("```") {
                    blocks.append(block)
                    current = nil
                } else {
                    current = block + line + "\n"
                }
            }
        }
        let commands = blocks.flatMap(ShellCommands.invocations(in:))
        if file == "README.md" || file.hasPrefix("Documentation/Getting") { #expect(commands.count >= 1, "\(commands.count) commands found") }
        for command in commands {
            #expect(Command.check(command) == nil, "\(file): appflip-conformance \(command.joined(separator: " ")): \(Command.check(command) ?? "")")
        }
    }

    @Test(
        "Each CI template parses and runs only commands the suite accepts",
        arguments: [
            "Examples/ci/github-actions.yml", "Examples/ci/github-actions-certification.yml", "Examples/ci/gitlab-ci.yml",
            "Examples/ci/gitlab-ci-certification.yml", "Examples/ci/Jenkinsfile",
        ])
    func template(_ path: String) throws {
        let text = try read(path)
        if path.hasSuffix(".yml") {
            #expect(throws: Never.self) { _ = try Parser.parse(bytes: Array(text.utf8), file: path) }
        }
        let commands = ShellCommands.invocations(in: text)
        #expect(!commands.isEmpty)
        for command in commands {
            #expect(Command.check(command) == nil, "\(path): \(command.joined(separator: " ")): \(Command.check(command) ?? "")")
        }
        // The suite is built the way the README says, and the binary the template runs is that build's product.
        #expect(text.contains("swift build -c release"))
        #expect(text.contains(".build/release/appflip-conformance"))
        #expect(text.contains("junit"))
    }

    @Test("The configuration reference gives Google's callers as the suite calls with them: package and certificate digest, with their source")
    func googleCallers() throws {
        let readme = try read("Documentation/Configuration.md")
        for (name, caller) in [("Google app", AndroidCaller.googleApp), ("Google Home", AndroidCaller.googleHome)] {
            #expect(readme.contains("| \(name) | `\(caller.package)` | `\(caller.signatureSHA256)` |"), "\(name)")
        }
        #expect(readme.contains("source: this project's reference notes on the Android contract, §1.7"))
    }

    @Test("The checker refuses what the suite would refuse")
    func checkerFails() {
        #expect(Command.check(["run", "--jbos", "2"]) != nil)
        #expect(Command.check(["frobnicate"]) != nil)
        #expect(Command.check(["merge", "--shard", "1/2", "a"]) != nil)
        #expect(Command.check(["run", "--target", "reference", "--", "--jbos"]) == nil)
        #expect(
            ShellCommands.invocations(in: "x && appflip-conformance run \\\n  --target reference || true # done")
                == [["run", "--target", "reference"]])
        // The binary named as a file to copy is no invocation; by path where a command starts, it is one.
        #expect(
            ShellCommands.invocations(in: "mkdir -p bin && cp x/.build/release/appflip-conformance bin/ && bin/appflip-conformance merge a")
                == [["merge", "a"]])
    }

    @Test("The static-build script is valid shell, and the Dockerfile builds with it and runs a command the suite accepts")
    func installation() throws {
        let (status, output) = try ProgramRun.run("/bin/bash", ["-n", PackageRoot.url.appendingPathComponent("Scripts/build-static.sh").path])
        #expect(status == 0, "\(output)")
        let dockerfile = try read("Dockerfile")
        #expect(dockerfile.contains("RUN Scripts/build-static.sh --output /usr/local/bin/appflip-conformance"))
        // The build stage needs the cases and the plugin that compiles them in; the image then needs only the binary.
        #expect(dockerfile.contains("COPY Conformance ./Conformance") && dockerfile.contains("COPY Plugins ./Plugins"))
        #expect(!dockerfile.contains("/suite/Conformance") && dockerfile.contains("WORKDIR /suite"))
        // The runtime image can take an adapter's interpreter (python3), installed with the rest, from a build argument.
        #expect(dockerfile.contains("ARG RUNTIME_PACKAGES=\"\"") && dockerfile.contains("ca-certificates $RUNTIME_PACKAGES"))
        #expect(dockerfile.contains("--build-arg RUNTIME_PACKAGES=python3"))
        guard let line = dockerfile.split(separator: "\n").first(where: { $0.hasPrefix("CMD ") }),
            let data = line.dropFirst(4).data(using: .utf8),
            let command = try JSONSerialization.jsonObject(with: data) as? [String]
        else {
            Issue.record("no CMD in exec form")
            return
        }
        #expect(Command.check(command) == nil, "\(command)")
    }
}
