import AppFlipCLI
import AppFlipSyntax
import AppFlipTestSupport
import Foundation
import Testing

/// Every command the README shows and every command a CI template runs is one the suite accepts; the templates
/// are well-formed; the reference client ID the README uses is the reference's.
@Suite("README and CI templates")
struct ExamplesTests {
    private func read(_ path: String) throws -> String {
        try String(contentsOfFile: PackageRoot.url.appendingPathComponent(path).path, encoding: .utf8)
    }

    @Test("Every appflip-conformance command in the README's shell blocks parses", arguments: ["README.md", "CONTRIBUTING.md"])
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
        if file == "README.md" { #expect(commands.count >= 4, "\(commands.count) commands found") }
        for command in commands {
            #expect(Command.check(command) == nil, "\(file): appflip-conformance \(command.joined(separator: " ")): \(Command.check(command) ?? "")")
        }
    }

    @Test("Each CI template parses and runs only commands the suite accepts", arguments: [
        "Examples/ci/github-actions.yml", "Examples/ci/gitlab-ci.yml", "Examples/ci/Jenkinsfile",
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

    @Test("The checker refuses what the suite would refuse")
    func checkerFails() {
        #expect(Command.check(["run", "--jbos", "2"]) != nil)
        #expect(Command.check(["frobnicate"]) != nil)
        #expect(Command.check(["merge", "--shard", "1/2", "a"]) != nil)
        #expect(Command.check(["run", "--target", "reference", "--", "--jbos"]) == nil)
        #expect(ShellCommands.invocations(in: "x && appflip-conformance run \\\n  --target reference || true # done")
                == [["run", "--target", "reference"]])
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
        guard let line = dockerfile.split(separator: "\n").first(where: { $0.hasPrefix("CMD ") }),
              let data = line.dropFirst(4).data(using: .utf8),
              let command = try JSONSerialization.jsonObject(with: data) as? [String] else {
            Issue.record("no CMD in exec form")
            return
        }
        #expect(Command.check(command) == nil, "\(command)")
    }
}
