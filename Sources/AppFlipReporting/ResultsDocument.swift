import Foundation

/// `results.json`: the whole run, machine-readable, under the versioned schema
/// `Conformance/results.schema.json`. Written beside junit.xml and report.md, with the same atomic rules, and
/// read back by the commands that compare, merge or re-run results. Evidence is redacted exactly as in the other
/// reports. Keys are snake_case; optional members are left out rather than written as null.
public struct ResultsDocument: Codable, Sendable, Hashable {
    /// Bumped whenever a member is removed or changes meaning; adding an optional member does not bump it.
    public static let currentVersion = 1
    public static let schemaName = "appflip-conformance/results"

    public var schema: String
    public var version: Int
    public var suite: Suite
    public var run: Run
    public var outcome: Outcome
    public var profiles: [ProfileEntry]
    public var requirements: [RequirementEntry]
    public var cases: [CaseEntry]

    public struct Suite: Codable, Sendable, Hashable {
        public var version: String
        /// SHA-256 over the case files and catalog, as report.md prints it.
        public var casesDigest: String
        public var caseFiles: Int
    }

    public struct Run: Codable, Sendable, Hashable {
        public var seed: UInt64
        public var target: String
        public var mode: String
        public var jobs: Int
        public var filter: String?
        public var samples: Int?
        /// Absent in reproducible reports.
        public var startedAt: String?
        public var durationSeconds: Double
        public var command: String
        public var transport: [String]
        public var handlerStartup: String?
        public var incomplete: Bool
        /// Present (true) for a certification run.
        public var certification: Bool?
        /// `I/N` when the run was one shard.
        public var shard: String?
        /// The `run` arguments (seed explicit), so a merge or a re-run can narrow or repeat the command.
        public var arguments: [String]?
    }

    public struct Outcome: Codable, Sendable, Hashable {
        /// The run's overall verdict (`pass`, `info`, `warn`, `skip`, `fail`, `error`).
        public var verdict: String
        public var exitCode: Int32
        /// Cases per verdict, every verdict present.
        public var counts: [String: Int]
        public var configurationProblems: [String]
        /// With a baseline: the failures it accepted (not in `counts`), and its entries that failed the run.
        public var baseline: BaselineEntry?
    }

    public struct BaselineEntry: Codable, Sendable, Hashable {
        public var path: String
        public var entries: Int
        public var known: Int
        /// Entries that expired or list a failure that no longer happens: each fails the run.
        public var problems: [String]
        public var unexercised: [String]
    }

    public struct ProfileEntry: Codable, Sendable, Hashable {
        public var profile: String
        public var cases: Int
        public var judged: Int
        public var tested: Bool
        /// Why cases were skipped, or why nothing of the profile ran; absent when everything ran.
        public var reason: String?
    }

    public struct RequirementEntry: Codable, Sendable, Hashable {
        public var id: String
        public var level: String
        public var profile: String
        public var title: String
        /// The requirement's verdict over the cases that name it, or `not-covered` when none in the run does.
        public var verdict: String
        public var cases: Int
        /// Why no case covers it, when that is by design or for now (`planned: …`, `not observable: …`).
        public var uncovered: String?
    }

    public struct CaseEntry: Codable, Sendable, Hashable {
        public var id: String
        public var title: String
        public var profile: String
        public var group: String
        public var file: String
        public var line: Int
        public var scenario: String
        public var verdict: String
        public var message: String?
        public var configurationProblem: String?
        public var suiteFault: String?
        /// The baseline entries that accept this case's failure for now; absent when none does.
        public var knownFailure: [String]?
        public var durationSeconds: Double
        public var checks: [CheckEntry]
        public var evidence: EvidenceEntry
    }

    public struct CheckEntry: Codable, Sendable, Hashable {
        public var requirement: String
        public var level: String
        /// `pass`, `info`, `warn`, `fail`, or `not-applicable`.
        public var verdict: String
        public var expected: String
        public var observed: String?
        public var notApplicable: String?
    }

    public struct EvidenceEntry: Codable, Sendable, Hashable {
        public var link: String?
        public var answer: String?
        public var stderr: String?
        public var exchanges: [String]
    }

    /// The document as UTF-8 JSON, keys sorted, so equal runs give equal bytes.
    public func render() -> String {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "{}\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// Reads a document written by `render()`; the error says what is wrong in one line.
    public static func parse(_ data: Data) throws(ReadFailure) -> ResultsDocument {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let document: ResultsDocument
        do {
            document = try decoder.decode(ResultsDocument.self, from: data)
        } catch {
            throw ReadFailure(message: "not a results.json document: \(Self.describe(error))")
        }
        guard document.schema == schemaName else { throw ReadFailure(message: "schema is '\(document.schema)', not '\(schemaName)'") }
        guard document.version <= currentVersion else {
            throw ReadFailure(message: "results.json version \(document.version) is newer than this suite reads (\(currentVersion))")
        }
        return document
    }

    /// Reads the results of an earlier run: `path` is its reports directory or its results.json. Returns the
    /// document and the file it came from.
    public static func load(run path: String) throws(ReadFailure) -> (document: ResultsDocument, file: String) {
        var isDirectory: ObjCBool = false
        let file = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue ? path + "/results.json" : path
        guard let data = FileManager.default.contents(atPath: file) else { throw ReadFailure(message: "cannot read \(file)") }
        do {
            return (try parse(data), file)
        } catch {
            throw ReadFailure(message: "\(file): \(error.message)")
        }
    }

    public struct ReadFailure: Error, Sendable {
        public var message: String
    }

    private static func describe(_ error: any Error) -> String {
        switch error as? DecodingError {
        case .keyNotFound(let key, let context)?:
            return "missing '\(key.stringValue)' at \(path(context.codingPath))"
        case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?, .dataCorrupted(let context)?:
            return "\(context.debugDescription) at \(path(context.codingPath))"
        default:
            return "\(error)"
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.isEmpty ? "the top level" : keys.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }.joined()
    }
}
