import AppFlipDigest
import AppFlipLoading
import AppFlipModel
import AppFlipReference
import AppFlipReporting
import AppFlipRunner
import AppFlipSetup
import AppFlipSuite
import Foundation

/// What `run` was asked, read and validated from its command line once; each option read through its declaration
/// (`CommandOption`), each value in its type. The target last: the reference server starts only once every other
/// option is known to be good, so no usage error leaves it running.
struct RunOptions {
    var assembly: RunSetup
    var profiles: [Profile]
    var mode: SubprocessTarget.Mode
    var timeout: Double
    var jobs: Int
    /// `--time-limit`: no case starts after this many seconds of the run; nil for no limit.
    var timeLimit: Double?
    var cases: String?
    var catalog: String?
    var filters: [String]
    var reports: String
    var reproducible: Bool
    var fileAttributes: Bool
    var includeSlow: Bool
    var samples: Int?
    var summary: String?
    var baseline: String?
    /// `--certification`: the programs named (empty: every program), or nil for no certification.
    var certification: [String]?
    var rerunFailed: String?
    /// Not an option: `verify --rerun` runs exactly the cases its bundle records (nil: no such narrowing).
    var only: Set<String>?
    var shard: Shard?
    var verbosity: RunProgress.Verbosity
    var color: RunProgress.ColorChoice
    var bundle: String?
    /// `--sign-key KEY.pem`: the Ed25519 private key the bundle is signed with, read (and checked) before the run.
    var signingKey: [UInt8]?
    /// `--target-label`, else the configuration's `target_label`.
    var targetLabel: String?
    /// `--target-version`, else the configuration's `target_version`.
    var targetVersion: String?
    /// `--adapter-file` and the configuration's `adapter_files`.
    var adapterFiles: [String] = []
    /// `--attest FILE`: what reviewers judged by hand.
    var attest: String?
    /// `--operator TEXT`: who ran the suite.
    var runBy: String?

    init(_ parsed: Arguments) throws(Arguments.UsageError) {
        guard parsed.positionals.isEmpty else {
            throw Arguments.UsageError(message: "unexpected argument '\(parsed.positionals[0])'; put the handler command after '--'")
        }
        mode = try parsed.choice(.mode, default: .oneShot, "is 'one-shot' or 'persistent'")
        timeout = try parsed.number(.timeout, default: 10, range: 0.1...3600)
        jobs = Int(try parsed.number(.jobs, default: Double(ProcessInfo.processInfo.activeProcessorCount), range: 1...256))
        timeLimit = parsed.values(.timeLimit).isEmpty ? nil : try parsed.number(.timeLimit, default: 0, range: 1...604_800)
        // A fresh seed per run, so generated values (state, verifiers, request ids) cannot be looked up by a
        // "test mode" adapter; the report records it and `--seed` reproduces the run exactly.
        var seed = UInt64.random(in: 1...UInt64(Int64.max))
        if let text = try parsed.value(.seed) {
            guard let value = UInt64(text) else { throw Arguments.UsageError(message: "--seed takes a whole number, not '\(text)'") }
            seed = value
        }
        let redirectURI = try parsed.value(.redirectURI) ?? AllowedFlipURIs.default
        guard AllowedFlipURIs.all.contains(redirectURI) else {
            throw Arguments.UsageError(
                message: "--redirect-uri must be one of the twelve App Flip URIs Google publishes, e.g. \(AllowedFlipURIs.default)")
        }
        try Self.refuseWaivers(parsed)
        profiles = try CertificationSelection.profiles(parsed)
        samples = try parsed.value(.samples).map { text throws(Arguments.UsageError) in
            let range = ConformanceCase.sampleRange
            guard let count = Int(text), range.contains(count) else {
                throw Arguments.UsageError(message: "--samples takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
            }
            return count
        }
        shard = try parsed.value(.shard).map { text throws(Arguments.UsageError) in
            guard let shard = Shard(parsing: text) else {
                throw Arguments.UsageError(message: "--shard takes I/N with 1 ≤ I ≤ N ≤ 1000, not '\(text)'")
            }
            return shard
        }
        if parsed.has(.quiet) && parsed.has(.verbose) { throw Arguments.UsageError(message: "--quiet and --verbose cannot both be given") }
        verbosity = parsed.has(.quiet) ? .quiet : parsed.has(.verbose) ? .verbose : .normal
        color = try parsed.choice(.color, default: .auto, "takes auto, always or never")
        cases = try parsed.value(.cases)
        catalog = try parsed.value(.catalog)
        filters = parsed.values(.filter)
        reports = try parsed.value(.reports) ?? "Reports"
        reproducible = parsed.has(.reproducible)
        fileAttributes = parsed.has(.junitFileAttributes)
        includeSlow = parsed.has(.slow)
        summary = try parsed.value(.summary)
        baseline = try parsed.value(.baseline)
        certification = CertificationSelection.names(parsed)
        rerunFailed = try parsed.value(.rerunFailed)
        bundle = try parsed.value(.bundle)
        signingKey = try Self.signingKey(parsed, bundle: bundle)
        attest = try parsed.value(.attest)
        runBy = try parsed.value(.runBy)
        if let targetName = try parsed.value(.target) {
            guard targetName == "reference" else {
                throw Arguments.UsageError(
                    message:
                        "--target takes 'reference'; for your own target give --link, --client-id and a handler command, --handler-url or --config")
            }
            assembly = try TargetArguments.reference(
                parsed, mode: mode, seed: seed, scope: try parsed.value(.scope) ?? "devices", redirectURI: redirectURI)
        } else {
            assembly = try TargetArguments.partner(parsed, mode: mode, seed: seed, scope: try parsed.value(.scope), redirectURI: redirectURI)
        }
        targetLabel = try parsed.value(.targetLabel) ?? assembly.targetLabel
        targetVersion = try parsed.value(.targetVersion) ?? assembly.targetVersion
        adapterFiles = parsed.values(.adapterFile) + assembly.adapterFiles.filter { !parsed.values(.adapterFile).contains($0) }
        for path in adapterFiles where (try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType) != .typeRegular {
            throw Arguments.UsageError(message: "--adapter-file (or adapter_files): '\(path)' is not a regular file")
        }
    }

    /// The private key `--sign-key` names, read and checked to be an Ed25519 key before anything runs; nil without
    /// the option. It signs a bundle, so it needs `--bundle`.
    static func signingKey(_ parsed: Arguments, bundle: String?) throws(Arguments.UsageError) -> [UInt8]? {
        guard let path = try parsed.value(.signKey) else { return nil }
        guard bundle != nil else { throw Arguments.UsageError(message: "--sign-key signs the evidence bundle: give --bundle FILE too") }
        let key: [UInt8]
        do {
            key = try BoundedFile.read(path, limit: 64 << 10)
        } catch {
            throw Arguments.UsageError(message: "--sign-key: \(error.message)")
        }
        do {
            _ = try Ed25519.sign([], privateKeyPEM: key)
        } catch {
            throw Arguments.UsageError(message: "--sign-key \(path): \(error.message)")
        }
        return key
    }

    /// A certification run judges whole programs as they are: nothing waived, nothing left out.
    private static func refuseWaivers(_ parsed: Arguments) throws(Arguments.UsageError) {
        guard parsed.has(.certification) else { return }
        for option in CommandOption.refused where !parsed.values(option).isEmpty {
            throw Arguments.UsageError(
                message: "--certification refuses \(option.name): a certification run judges every case, with nothing waived or left out")
        }
        // Only the suite's own cases and catalog certify: a partner's files could judge anything, or nothing.
        for option in [CommandOption.cases, .catalog] where !parsed.values(option).isEmpty {
            throw Arguments.UsageError(
                message: "--certification refuses \(option.name): a certification judges the suite's own cases against its own "
                    + "catalog, the ones built into this binary (`verify` holds a bundle to them); drop \(option.name)")
        }
        if !parsed.values(.profile).isEmpty {
            throw Arguments.UsageError(
                message: "--certification refuses --profile: a certification judges whole programs; name them instead, "
                    + "--certification PROGRAM (" + BuiltInSuite.programKeys.joined(separator: ", ") + "; see `list --programs`)")
        }
    }
}

extension Arguments {
    /// A number option's value within `range`, or `fallback` when it was not given.
    func number(_ option: CommandOption, default fallback: Double, range: ClosedRange<Double>) throws(UsageError) -> Double {
        guard let text = try value(option) else { return fallback }
        guard let value = Double(text), range.contains(value) else {
            throw UsageError(
                message: "\(option.name) takes a number from \(Self.shown(range.lowerBound)) to \(Self.shown(range.upperBound)), not '\(text)'")
        }
        return value
    }

    /// A value among a type's spellings (`--mode persistent`), or `fallback` when the option was not given; `allowed`
    /// completes the refusal ("--mode is 'one-shot' or 'persistent', not 'x'").
    func choice<Value: RawRepresentable>(_ option: CommandOption, default fallback: Value, _ allowed: String) throws(UsageError) -> Value
    where Value.RawValue == String {
        guard let text = try value(option) else { return fallback }
        guard let chosen = Value(rawValue: text) else { throw UsageError(message: "\(option.name) \(allowed), not '\(text)'") }
        return chosen
    }

    /// A bound as a person writes it: `256`, not `256.0`; `0.1` stays.
    private static func shown(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
