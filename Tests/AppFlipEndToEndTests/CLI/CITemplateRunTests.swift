import AppFlipBase
import AppFlipDigest
import AppFlipModel
import AppFlipSyntax
import AppFlipTestSupport
import Foundation
import Testing

/// Each CI template's steps run here as their CI would run them, as far as a test can: every job in a workspace of its
/// own, sharing only what the template passes on as artifacts, every shell step through bash as written, with the
/// partner's adapter the reference handler and `swift build` a stand-in (the suite is already built: its product is
/// put where the build leaves it). What a test cannot do (fetch a repository, cache, publish a check) is checked
/// as configuration: the permission the JUnit action needs, the submodule strategy GitLab needs.
@Suite("CI templates, run", .serialized)
struct CITemplateRunTests {
    /// A scratch area: a fake `swift` on PATH, the partner's adapter, and one workspace per job.
    final class Sandbox {
        let root: String
        let tools: String
        var artifacts: [String: String] = [:]

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("ci-template-\(UUID().uuidString)").path
            tools = root + "/tools"
            try FileManager.default.createDirectory(atPath: tools, withIntermediateDirectories: true)
            // `swift build` is the one step a test does not repeat: the stand-in leaves the built tool where a
            // release build would (`--package-path DIR` → DIR/.build/release), and says what it was asked.
            try ExecutableFile.write(
                """
                #!/bin/bash
                set -e
                [ "$1 $2 $3" = "build -c release" ] || { echo "unexpected swift command: $*" >&2; exit 1; }
                [ "$4" = "--package-path" ] || { echo "no --package-path" >&2; exit 1; }
                mkdir -p "$5/.build/release" && cp "\(BuiltProducts.path("appflip-conformance"))" "$5/.build/release/appflip-conformance"
                """, to: tools + "/swift")
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }

        /// A fresh workspace holding the partner's repository: its adapter (the reference handler, persistent).
        func workspace(_ name: String) throws -> String {
            let path = root + "/" + name
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            try ExecutableFile.write(
                "#!/bin/sh\nexec \"\(BuiltProducts.path("appflip-conformance"))\" reference-handler --client-id google-client\n",
                to: path + "/my-adapter")
            return path
        }

        /// Runs one shell step as written, `set -e` as CI runners do; its status and output.
        func step(_ script: String, in directory: String, environment: [String: String]) throws -> (status: Int32, output: String) {
            var variables = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("APPFLIP_") }
            variables.merge(environment) { _, given in given }
            variables["PATH"] = tools + ":" + (variables["PATH"] ?? "/usr/bin:/bin")
            variables["GOOGLE_CLIENT_ID"] = "google-client"
            return try ProgramRun.run("/bin/bash", ["-e", "-c", script], environment: variables, in: directory)
        }

        /// Keeps `path` of a workspace under `name`, as an upload does.
        func upload(_ name: String, path: String, from directory: String) throws {
            let kept = root + "/artifacts/" + name
            try FileManager.default.createDirectory(atPath: kept, withIntermediateDirectories: true)
            let source = directory + "/" + path
            try ExecutableFile.copy(source, to: kept + "/" + (path as NSString).lastPathComponent)
            artifacts[name] = kept
        }

        /// Puts what `name` kept under `path` of a workspace (the artifact's contents, as download-artifact does).
        func download(_ name: String, to path: String, in directory: String) throws {
            let kept = try #require(artifacts[name], "no artifact \(name)")
            let target = directory + "/" + path
            try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
            for item in try FileManager.default.contentsOfDirectory(atPath: kept) {
                let from = kept + "/" + item
                var isDirectory: ObjCBool = false
                _ = FileManager.default.fileExists(atPath: from, isDirectory: &isDirectory)
                if isDirectory.boolValue {
                    // A directory uploaded is downloaded as its contents.
                    for inner in try FileManager.default.contentsOfDirectory(atPath: from) {
                        try ExecutableFile.copy(from + "/" + inner, to: target + "/" + inner)
                    }
                } else {
                    try ExecutableFile.copy(from, to: target + "/" + item)
                }
            }
        }
    }

    private func template(_ path: String) throws -> Node.Mapping {
        let text = try String(contentsOfFile: PackageRoot.url.appendingPathComponent(path).path, encoding: .utf8)
        guard case .mapping(let mapping) = try Parser.parse(bytes: Array(text.utf8), file: path) else { throw CancellationError() }
        return mapping
    }

    private func text(_ node: Node?) -> String? {
        if case .scalar(let scalar)? = node { return scalar.text }
        return nil
    }

    private func mapping(_ node: Node?) -> Node.Mapping? {
        if case .mapping(let mapping)? = node { return mapping }
        return nil
    }

    private func items(_ node: Node?) -> [Node] {
        if case .sequence(let sequence)? = node { return sequence.items }
        return []
    }

    /// A GitHub expression replaced by its value for this job.
    private func expand(_ text: String, _ values: [String: String]) -> String {
        values.reduce(text) { $0.replacingOccurrences(of: "${{ \($1.key) }}", with: $1.value) }
    }

    /// One GitHub job: its steps in order; `uses:` steps emulated for checkout, upload and download, `run:` steps run.
    private func runGitHubJob(
        _ job: Node.Mapping, named name: String, values: [String: String], sandbox: Sandbox,
        environment: [String: String] = [:], repository: (String) throws -> Void = { _ in }
    ) throws -> String {
        let workspace = try sandbox.workspace(name)
        try repository(workspace)
        for step in items(job["steps"]).compactMap(mapping) {
            let with = mapping(step["with"])
            if let uses = text(step["uses"]) {
                if uses.hasPrefix("actions/upload-artifact@"), let artifact = text(with?["name"]), let path = text(with?["path"]) {
                    try sandbox.upload(expand(artifact, values), path: expand(path, values), from: workspace)
                } else if uses.hasPrefix("actions/download-artifact@"), let path = text(with?["path"]) {
                    if let artifact = text(with?["name"]) {
                        try sandbox.download(artifact, to: path, in: workspace)
                    } else if let pattern = text(with?["pattern"]) {
                        for artifact in sandbox.artifacts.keys.sorted() where Glob.matches(pattern, artifact) {
                            try sandbox.download(artifact, to: path + "/" + artifact, in: workspace)
                        }
                    }
                }
                continue
            }
            guard let script = text(step["run"]) else { continue }
            var variables = environment
            for entry in mapping(step["env"])?.entries ?? [] { variables[entry.key.text] = text(entry.value).map { expand($0, values) } }
            let (status, output) = try sandbox.step(expand(script, values), in: workspace, environment: variables)
            #expect(status == 0, "\(name): \(text(step["name"]) ?? script) exited \(status): \(output.suffix(1500))")
        }
        return workspace
    }

    @Test("GitHub Actions: built once, the binary passed to four shards and the verdict, merged to one verdict; checks: write granted")
    func github() throws {
        let document = try template("Examples/ci/github-actions.yml")
        let permissions = try #require(mapping(document["permissions"]), "no permissions: the JUnit action cannot publish its check")
        #expect(text(permissions["checks"]) == "write")
        let jobs = try #require(mapping(document["jobs"]))
        let sandbox = try Sandbox()
        let values = ["github.run_id": "4242", "secrets.GOOGLE_CLIENT_ID": "google-client"]
        _ = try runGitHubJob(try #require(mapping(jobs["build"])), named: "build", values: values, sandbox: sandbox)
        let shard = try #require(mapping(jobs["shard"]))
        #expect(text(mapping(shard["strategy"])?["fail-fast"]) == "false")
        let shards = items(mapping(mapping(shard["strategy"])?["matrix"])?["shard"]).compactMap(text)
        #expect(shards == ["1", "2", "3", "4"])
        for index in shards {
            _ = try runGitHubJob(shard, named: "shard-\(index)", values: values.merging(["matrix.shard": index]) { $1 }, sandbox: sandbox)
        }
        let summary = sandbox.root + "/summary.md"
        let verdict = try runGitHubJob(
            try #require(mapping(jobs["verdict"])), named: "verdict", values: values, sandbox: sandbox,
            environment: ["GITHUB_STEP_SUMMARY": summary])
        // The JUnit action's input is there, and so is the summary the job page shows.
        let junit = try String(contentsOfFile: verdict + "/Reports/junit.xml", encoding: .utf8)
        #expect(junit.contains("<testsuites") && junit.contains("app-link/baseline/valid-link"))
        #expect(try String(contentsOfFile: summary, encoding: .utf8).contains("CONFORMANT"))
        // Built once: no job but the build compiles the suite.
        for (name, job) in [("shard", shard), ("verdict", try #require(mapping(jobs["verdict"])))] {
            #expect(
                !items(job["steps"]).compactMap { text(mapping($0)?["run"]) }.contains { $0.contains("swift build") },
                "\(name) builds the suite again")
        }
    }

    @Test(
        "GitHub Actions certification: configuration file, staging CA from a secret, Python adapters, --handler-env, attestations; passed and attested by the partner, bundle verified"
    )
    func githubCertification() throws {
        let document = try template("Examples/ci/github-actions-certification.yml")
        let job = try #require(mapping(mapping(document["jobs"])?["certify"]))
        let sandbox = try Sandbox()
        // The partner's staging deployment, with a CA nothing else trusts.
        try FileManager.default.createDirectory(atPath: sandbox.root + "/staging", withIntermediateDirectories: true)
        let staging = try StagingServer(directory: sandbox.root + "/staging")
        let key = try Ed25519.newKey()
        var values = [
            "secrets.STAGING_CA_PEM": staging.pem, "secrets.STAGING_SESSION": "staging-session-4c1f9e", "secrets.APPFLIP_SIGNING_KEY": key.privateKey,
        ]
        for (name, value) in StagingServer.secrets { values["secrets." + name] = value }
        // The partner's repository: the files the template names.
        let workspace = try runGitHubJob(job, named: "certify", values: values, sandbox: sandbox) {
            try partnerRepository($0, staging: staging, publicKey: key.publicKey)
        }
        #expect(!FileManager.default.fileExists(atPath: workspace + "/signing-key.pem"), "the private key was left in the workspace")
        try expectCertified(workspace)
        #expect(sandbox.artifacts["appflip-certification"] != nil, "the reports were not kept as an artifact")
    }

    /// The files a certification template names in the partner's repository: the configuration for `staging`, the
    /// reviewer's attestations, and the two adapters in Python, as the templates run them. What the adapters do is
    /// the reference app's: they check the session was passed, then become it.
    private func partnerRepository(_ workspace: String, staging: StagingServer, publicKey: String) throws {
        let appflip = workspace + "/appflip"
        try FileManager.default.createDirectory(atPath: appflip, withIntermediateDirectories: true)
        try publicKey.write(toFile: appflip + "/signing-key.pub", atomically: true, encoding: .utf8)
        try staging.configuration().write(toFile: appflip + "/staging.target", atomically: true, encoding: .utf8)
        try AttestationFixture.write(
            ["AF-LINK-021", "TOK-GEN-006", "AF-ANDR-016", "AF-ANDR-017", "AF-ANDR-018", "AF-ANDR-020"],
            to: appflip + "/attestations.txt")
        for (name, subcommand) in [("ios_adapter.py", ""), ("android_adapter.py", "\"android-handler\", ")] {
            try """
            import os, sys
            if not os.environ.get("STAGING_SESSION"):
                sys.exit("STAGING_SESSION was not passed to the adapter")
            reference = "\(BuiltProducts.path("appflip-reference"))"
            os.execv(reference, [reference, \(subcommand)"--code-server", "\(staging.codeServer)", "--code-server-ca", \"\"\"\(staging.pem)\"\"\"])

            """.write(toFile: appflip + "/" + name, atomically: true, encoding: .utf8)
        }
    }

    /// The bundle the reviewer gets, whole: `verify` says so, both programs are certified, no secret is in a report.
    private func expectCertified(_ workspace: String) throws {
        let verify = try ProgramRun.run(
            BuiltProducts.path("appflip-conformance"),
            ["verify", workspace + "/Reports/certification.tar", "--trusted-key", workspace + "/appflip/signing-key.pub"])
        #expect(verify.status == 0, "\(verify.output)")
        #expect(
            verify.output.contains(
                "certification run: PASSED BY THE SUITE, ATTESTED BY THE PARTNER: App Flip for iOS; PASSED BY THE SUITE, ATTESTED BY THE PARTNER: App Flip for Android"
            ), "\(verify.output)")
        let markdown = try String(contentsOfFile: workspace + "/Reports/report.md", encoding: .utf8)
        #expect(!markdown.contains("staging-session-4c1f9e") && !markdown.contains("approver-password"))
    }

    @Test(
        "GitLab CI certification: the CA as a File variable, Python adapters, --handler-env, attestations, one job; passed and attested by the partner, bundle verified"
    )
    func gitlabCertification() throws {
        let document = try template("Examples/ci/gitlab-ci-certification.yml")
        let job = try #require(mapping(document["certify"]))
        #expect(text(mapping(document["variables"])?["GIT_SUBMODULE_STRATEGY"]) == "recursive")
        let sandbox = try Sandbox()
        try FileManager.default.createDirectory(atPath: sandbox.root + "/staging", withIntermediateDirectories: true)
        let staging = try StagingServer(directory: sandbox.root + "/staging")
        // GitLab writes a File variable's value to a file of its own and gives the path.
        let caVariable = sandbox.root + "/STAGING_CA"
        try staging.pem.write(toFile: caVariable, atomically: true, encoding: .utf8)
        let key = try Ed25519.newKey()
        let keyVariable = sandbox.root + "/APPFLIP_SIGNING_KEY"
        try key.privateKey.write(toFile: keyVariable, atomically: true, encoding: .utf8)
        var environment = StagingServer.secrets.merging(
            ["STAGING_CA": caVariable, "STAGING_SESSION": "staging-session-4c1f9e", "APPFLIP_SIGNING_KEY": keyVariable]) { $1 }
        for entry in mapping(document["variables"])?.entries ?? [] { environment[entry.key.text] = text(entry.value) }
        let workspace = try sandbox.workspace("certify")
        try partnerRepository(workspace, staging: staging, publicKey: key.publicKey)
        for line in items(job["script"]).compactMap(text) {
            let (status, output) = try sandbox.step(line, in: workspace, environment: environment)
            #expect(status == 0, "certify: \(line) exited \(status): \(output.suffix(2000))")
        }
        try expectCertified(workspace)
        let junit = try #require(text(mapping(mapping(job["artifacts"])?["reports"])?["junit"]))
        #expect(FileManager.default.fileExists(atPath: workspace + "/" + junit), "the JUnit report GitLab reads is missing")
    }

    @Test("GitLab CI: the submodule fetched, built once, four parallel shards, merged with a JUnit report")
    func gitlab() throws {
        let document = try template("Examples/ci/gitlab-ci.yml")
        let variables = try #require(mapping(document["variables"]))
        #expect(text(variables["GIT_SUBMODULE_STRATEGY"]) == "recursive", "the suite is a submodule: GitLab must fetch it")
        var environment: [String: String] = [:]
        for entry in variables.entries { environment[entry.key.text] = text(entry.value) }
        environment["CI_PIPELINE_ID"] = "4242"
        let sandbox = try Sandbox()
        /// Runs a job's script lines in a fresh workspace holding the artifacts of the jobs it needs.
        func run(_ name: String, workspace label: String, extra: [String: String] = [:], inputs: [String]) throws -> String {
            let job = try #require(mapping(document[name]))
            let workspace = try sandbox.workspace(label)
            // GitLab restores the artifacts of the jobs a job needs at the paths they were kept from.
            for input in inputs {
                let kept = try #require(sandbox.artifacts[input], "no artifacts of \(input)")
                _ = try ProgramRun.run("/bin/cp", ["-R", kept + "/.", workspace])
            }
            for line in items(job["script"]).compactMap(text) {
                let (status, output) = try sandbox.step(line, in: workspace, environment: environment.merging(extra) { $1 })
                #expect(status == 0, "\(name): \(line) exited \(status): \(output.suffix(1500))")
            }
            for path in items(mapping(job["artifacts"])?["paths"]).compactMap(text) {
                let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
                let kept = sandbox.root + "/gitlab-artifacts/" + label
                let destination = kept + "/" + trimmed
                try FileManager.default.createDirectory(
                    atPath: (destination as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                if FileManager.default.fileExists(atPath: workspace + "/" + trimmed) {
                    if FileManager.default.fileExists(atPath: destination) {
                        for item in try FileManager.default.contentsOfDirectory(atPath: workspace + "/" + trimmed) {
                            try ExecutableFile.copy(workspace + "/" + trimmed + "/" + item, to: destination + "/" + item)
                        }
                    } else {
                        try ExecutableFile.copy(workspace + "/" + trimmed, to: destination)
                    }
                }
                sandbox.artifacts[label] = kept
            }
            return workspace
        }
        // The build job has the submodule at $SUITE (the stand-in swift leaves the product there).
        _ = try run("build-suite", workspace: "build-suite", inputs: [])
        let conformance = try #require(mapping(document["conformance"]))
        #expect(text(conformance["parallel"]) == "4")
        #expect(items(conformance["needs"]).compactMap(text) == ["build-suite"])
        for index in 1...4 {
            _ = try run(
                "conformance", workspace: "conformance-\(index)", extra: ["CI_NODE_INDEX": String(index), "CI_NODE_TOTAL": "4"],
                inputs: ["build-suite"])
        }
        let verdict = try run("verdict", workspace: "verdict", inputs: ["build-suite"] + (1...4).map { "conformance-\($0)" })
        let junitPath = try #require(text(mapping(mapping(mapping(document["verdict"])?["artifacts"])?["reports"])?["junit"]))
        #expect(FileManager.default.fileExists(atPath: verdict + "/" + junitPath), "the JUnit report GitLab reads is missing")
    }

    @Test("Jenkins: the suite built, run against the adapter in persistent mode, its JUnit results where the junit step reads them")
    func jenkins() throws {
        let text = try String(contentsOfFile: PackageRoot.url.appendingPathComponent("Examples/ci/Jenkinsfile").path, encoding: .utf8)
        var scripts: [String] = []
        var rest = Substring(text)
        while let start = rest.range(of: "sh '") {
            let after = rest[start.upperBound...]
            let triple = after.hasPrefix("''")
            let body = triple ? after.dropFirst(2) : after
            guard let end = body.range(of: triple ? "'''" : "'") else { break }
            scripts.append(String(body[..<end.lowerBound]))
            rest = body[end.upperBound...]
        }
        #expect(scripts.count == 2, "\(scripts)")
        let sandbox = try Sandbox()
        let workspace = try sandbox.workspace("jenkins")
        for script in scripts {
            let (status, output) = try sandbox.step(script, in: workspace, environment: ["SUITE": "appflip-conformance"])
            #expect(status == 0, "\(script) exited \(status): \(output.suffix(1500))")
        }
        #expect(scripts.last?.contains("--mode persistent") == true)
        let junitPath = try #require(text.range(of: "junit testResults: '").map { text[$0.upperBound...].prefix { $0 != "'" } })
        #expect(FileManager.default.fileExists(atPath: workspace + "/" + junitPath))
    }
}
