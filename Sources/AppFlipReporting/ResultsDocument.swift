import AppFlipBase
import AppFlipModel
import Foundation

/// `results.json`: the whole run, machine-readable, under the versioned schema
/// `Conformance/results.schema.json`. Written beside junit.xml and report.md, with the same atomic rules, and
/// read back by the commands that compare, merge or re-run results. Evidence is redacted exactly as in the other
/// reports. Keys are snake_case; optional members are left out rather than written as null.
package struct ResultsDocument: Codable, Sendable, Hashable {
    /// Bumped whenever a member is removed or changes meaning; adding an optional member does not bump it.
    /// 2: each of a case's `exchanges` is an object (transcript, time, headers), not a string; version 1 is still read.
    /// 3: a program passed by the suite and attested by the run's own file is `attested-by-partner`, no longer
    /// `certified` (only a reviewer's certificate certifies); an earlier document's `certified` is read as that.
    package static let currentVersion = 3
    package static let schemaName = "appflip-conformance/results"

    package var schema: String
    package var version: Int
    package var suite: Suite
    package var run: Run
    package var outcome: Outcome
    package var profiles: [ProfileEntry]
    package var requirements: [RequirementEntry]
    package var cases: [CaseEntry]
    /// What reviewers attested by hand (`--attest`); absent when nothing was. Never counted in `outcome`.
    package var attestations: [AttestationEntry]?

    package struct Suite: Codable, Sendable, Hashable {
        package var version: String
        /// SHA-256 over the case files and catalog, as report.md prints it.
        package var casesDigest: String
        package var caseFiles: Int
        /// The SHA-256 of the catalog's bytes; absent in results of 0.3.0 and earlier.
        package var catalogDigest: String?
        /// Whether the case files and the catalog are the ones built into the suite that ran; absent when unknown.
        package var casesBuiltIn: Bool?
        package var catalogBuiltIn: Bool?
    }

    package struct Run: Codable, Sendable, Hashable {
        package var seed: UInt64
        package var target: String
        package var mode: String
        package var jobs: Int
        package var filter: String?
        package var samples: Int?
        /// Absent in reproducible reports.
        package var startedAt: String?
        package var durationSeconds: Double
        package var command: String
        package var transport: [String]
        package var handlerStartup: String?
        /// The measured start-up times the reports show; absent in reproducible reports.
        package var handlerStartupMeasured: String?
        package var incomplete: Bool
        /// Present (true) for a certification run.
        package var certification: Bool?
        /// The programs a certification run judged (their keys); absent otherwise. A document of a suite before
        /// programs (certification with no list) read back: every program of the catalog.
        package var certificationPrograms: [String]?
        /// `I/N` when the run was one shard.
        package var shard: String?
        /// The `run` arguments (seed explicit), so a merge or a re-run can narrow or repeat the command.
        package var arguments: [String]?
        /// Which build ran where: the executable's SHA-256, the platform, the toolchain; and the label given to the
        /// target under test.
        package var executableSha256: String?
        package var platform: String?
        package var toolchain: String?
        package var targetLabel: String?
        /// The partner's build under test; absent when not given.
        package var targetVersion: String?
        /// The git commit the suite was built from, when known.
        package var sourceCommit: String?
        /// The adapters the run started and the files among their arguments, each with its SHA-256.
        package var adapters: [AdapterEntry]?
        /// Who ran it and where; absent in reproducible reports.
        package var runBy: String?
        package var host: String?
    }

    package struct AdapterEntry: Codable, Sendable, Hashable {
        package var role: String
        package var path: String
        package var sha256: String?
        package var problem: String?
        /// The digest taken before the first case, when it differs from `sha256` (taken after the last).
        package var sha256Before: String?

        /// Present (true) when the file is one of the suite's own reference adapters.
        package var suiteReference: Bool?

        /// The entry as the run's provenance holds it, for its one-line summary.
        package var file: Provenance.AdapterFile {
            var file = Provenance.AdapterFile(role: role, path: path, sha256: sha256, problem: problem)
            file.sha256Before = sha256Before
            file.suiteReference = suiteReference == true
            return file
        }
    }

    package struct Outcome: Codable, Sendable, Hashable {
        /// The run's overall verdict (`pass`, `info`, `warn`, `skip`, `fail`, `error`).
        package var verdict: String
        package var exitCode: Int32
        /// Cases per verdict, every verdict present.
        package var counts: [String: Int]
        package var configurationProblems: [String]
        /// With a baseline: the failures it accepted (not in `counts`), and its entries that failed the run.
        package var baseline: BaselineEntry?
        /// A certification run: each program's outcome, derived from the cases.
        package var certification: [ProgramEntry]?
    }

    package struct ProgramEntry: Codable, Sendable, Hashable {
        package var program: String
        package var title: String
        /// `attested-by-partner` (the suite's part held and the run's own file attests every MUST no machine judges),
        /// `awaiting-attestation` (a MUST requirement no machine judges is not attested yet), `not-certified`, or `shard`.
        package var status: String
        package var reason: String?
        /// The program's requirements no machine judges, by ID: a reviewer attests them (`--attest`).
        package var toAttest: [String]
    }

    package struct BaselineEntry: Codable, Sendable, Hashable {
        package var path: String
        package var entries: Int
        package var known: Int
        /// Entries that expired or list a failure that no longer happens: each fails the run.
        package var problems: [String]
        package var unexercised: [String]
        /// The day (YYYY-MM-DD) the expiry dates were judged against; absent in a reproducible report (it writes no
        /// dates) and in earlier versions'.
        package var judgedOn: String?
    }

    package struct ProfileEntry: Codable, Sendable, Hashable {
        package var profile: String
        package var cases: Int
        package var judged: Int
        package var tested: Bool
        /// Why cases were skipped, or why nothing of the profile ran; absent when everything ran.
        package var reason: String?
    }

    package struct RequirementEntry: Codable, Sendable, Hashable {
        package var id: String
        package var level: String
        package var profile: String
        package var title: String
        /// The requirement's verdict over the cases that name it, or `not-covered` when none in the run does.
        package var verdict: String
        package var cases: Int
        /// Why no case covers it, when that is by design or for now (`planned: …`, `not observable: …`).
        package var uncovered: String?
        /// A reviewer's verdict given by hand (`--attest`), beside `verdict`, which stays the suite's.
        package var attested: String?
    }

    package struct AttestationEntry: Codable, Sendable, Hashable {
        package var requirement: String
        /// `pass`, `fail` or `not-applicable`.
        package var verdict: String
        package var by: String
        package var date: String
        package var note: String
        package var attachments: [AttachmentEntry]

        package init(requirement: String, verdict: String, by: String, date: String, note: String, attachments: [AttachmentEntry]) {
            self.requirement = requirement
            self.verdict = verdict
            self.by = by
            self.date = date
            self.note = note
            self.attachments = attachments
        }
    }

    package struct AttachmentEntry: Codable, Sendable, Hashable {
        /// As the attestation file gives it.
        package var path: String
        /// Where an evidence bundle holds it.
        package var bundlePath: String
        package var sha256: String
        package var bytes: Int

        package init(path: String, bundlePath: String, sha256: String, bytes: Int) {
            self.path = path
            self.bundlePath = bundlePath
            self.sha256 = sha256
            self.bytes = bytes
        }
    }

    package struct CaseEntry: Codable, Sendable, Hashable {
        package var id: String
        package var title: String
        package var profile: String
        package var group: String
        package var file: String
        package var line: Int
        /// The case's earlier IDs (`formerly:`), when it was renamed; absent otherwise.
        package var formerly: [String]?
        package var scenario: String
        package var verdict: String
        package var message: String?
        /// Set when none of what the case tests could be judged though a finding of the suite's own gave it its
        /// verdict: why. A certification run counts it as not judged.
        package var notJudged: String?
        /// For a skipped case: not applicable to this target (every requirement it tests is conditional, and the
        /// target's answers, which the sources allow, did not meet the condition). Not missing from a certification.
        package var conditionUnmet: Bool?
        package var configurationProblem: String?
        package var suiteFault: String?
        /// The target the case needed and the run could not use before any case, when that is why it was not sent.
        package var unreachableTarget: UnreachableEntry?
        /// The baseline entries that accept this case's failure for now; absent when none does.
        package var knownFailure: [String]?
        package var durationSeconds: Double
        package var checks: [CheckEntry]
        package var evidence: EvidenceEntry
    }

    /// A target a run could not use (`UnreachableTarget`): an origin or an adapter contract's key, and why.
    package struct UnreachableEntry: Codable, Sendable, Hashable {
        package var key: String
        package var reason: String

        package init(key: String, reason: String) {
            self.key = key
            self.reason = reason
        }
    }

    package struct CheckEntry: Codable, Sendable, Hashable {
        package var requirement: String
        package var level: String
        /// `pass`, `info`, `warn`, `fail`, or `not-applicable`.
        package var verdict: String
        package var expected: String
        package var observed: String?
        package var notApplicable: String?
    }

    package struct EvidenceEntry: Codable, Sendable, Hashable {
        package var link: String?
        package var answer: String?
        package var stderr: String?
        package var exchanges: [ExchangeEntry]
    }

    /// One exchange of a case's evidence. A version 1 document wrote the transcript alone, as a string: read as an
    /// exchange with nothing else known.
    package struct ExchangeEntry: Codable, Sendable, Hashable {
        package var transcript: String
        /// UTC with milliseconds (`2026-11-25T20:21:16.123Z`); absent in reproducible reports.
        package var sentAt: String?
        package var milliseconds: Int?
        package var requestHeaders: [HeaderEntry]?
        package var responseHeaders: [HeaderEntry]?

        package init(
            transcript: String, sentAt: String? = nil, milliseconds: Int? = nil, requestHeaders: [HeaderEntry]? = nil,
            responseHeaders: [HeaderEntry]? = nil
        ) {
            self.transcript = transcript
            self.sentAt = sentAt
            self.milliseconds = milliseconds
            self.requestHeaders = requestHeaders
            self.responseHeaders = responseHeaders
        }

        package init(from decoder: any Decoder) throws {
            if let transcript = try? decoder.singleValueContainer().decode(String.self) {
                self.init(transcript: transcript)
                return
            }
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                transcript: try container.decode(String.self, forKey: .transcript),
                sentAt: try container.decodeIfPresent(String.self, forKey: .sentAt),
                milliseconds: try container.decodeIfPresent(Int.self, forKey: .milliseconds),
                requestHeaders: try container.decodeIfPresent([HeaderEntry].self, forKey: .requestHeaders),
                responseHeaders: try container.decodeIfPresent([HeaderEntry].self, forKey: .responseHeaders))
        }
    }

    package struct HeaderEntry: Codable, Sendable, Hashable {
        package var name: String
        package var value: String

        package init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The document as UTF-8 JSON, keys sorted, so equal runs give equal bytes.
    package func render() -> String {
        let sink = ReportSink()
        write(into: sink)
        return sink.text
    }
}
