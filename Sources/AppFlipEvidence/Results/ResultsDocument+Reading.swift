import AppFlipBase
import AppFlipLoading
import AppFlipModel
import AppFlipReporting
import Foundation

/// Reading a results.json back (`diff`, `merge`, `--rerun-failed`, `verify`): bounded, strict about repeated members,
/// and never believing what a document derives from its cases.
extension ResultsDocument {
    /// Reads a document written by `render()`; the error says what is wrong in one line.
    package static func parse(_ data: Data) throws(ReadFailure) -> ResultsDocument {
        // A member written twice reads as the first here and as the last to jq or Python: refused as ambiguous.
        do {
            try JSONReader.check([UInt8](data))
        } catch {
            throw ReadFailure(
                message: "not a results.json document: "
                    + (error.isRepeatedMember ? error.message : "not JSON (\(error.message) at byte \(error.offset))"))
        }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        var document: ResultsDocument
        do {
            document = try decoder.decode(ResultsDocument.self, from: data)
        } catch {
            throw ReadFailure(message: "not a results.json document: \(Self.describe(error))")
        }
        guard document.schema == schemaName else { throw ReadFailure(message: "schema is '\(document.schema)', not '\(schemaName)'") }
        guard document.version <= currentVersion else {
            throw ReadFailure(message: "results.json version \(document.version) is newer than this suite reads (\(currentVersion))")
        }
        if document.version < 3 {
            document.outcome.certification = document.outcome.certification?.map { entry in
                var entry = entry
                if entry.status == "certified" { entry.status = ProgramOutcome.Status.attestedByPartner.rawValue }
                return entry
            }
        }
        return document
    }

    /// Reads the results of an earlier run: `path` is its reports directory or its results.json. Returns the
    /// document and the file it came from; a document whose derived fields its cases contradict is refused.
    /// `suite` gives the case files and catalog with the digest the document records, when the caller has them:
    /// then its requirement and profile entries are derived again too.
    package static func load(run path: String, suite: (_ casesDigest: String) -> (CaseSuite, Catalog)? = { _ in nil })
        throws(ReadFailure) -> (document: ResultsDocument, file: String)
    {
        var isDirectory: ObjCBool = false
        let file = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue ? path + "/results.json" : path
        let data: [UInt8]
        do {
            data = try BoundedFile.read(file, limit: BoundedFile.resultsLimit)
        } catch {
            throw ReadFailure(message: error.reason == "cannot be read" ? "cannot read \(file)" : error.message)
        }
        let document: ResultsDocument
        do {
            document = try parse(Data(data))
        } catch {
            throw ReadFailure(message: "\(file): \(error.message)")
        }
        // What it derives is derived again: a case set to "pass" over a failed MUST check is named, never believed.
        let known = suite(document.suite.casesDigest)
        let contradictions = document.contradictions(suite: known?.0, catalog: known?.1)
        if let first = contradictions.first {
            throw ReadFailure(
                message: "\(file) contradicts itself: \(first)"
                    + (contradictions.count > 1 ? " (and \(contradictions.count - 1) more contradiction\(contradictions.count == 2 ? "" : "s"))" : "")
            )
        }
        return (document, file)
    }

    package struct ReadFailure: Error, Sendable {
        package var message: String
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
