import AppFlipBase
import AppFlipDigest
import AppFlipReporting
import Foundation

/// A certification reviewer's signed decision (`certify`), in the supply-chain convention rather than a format of our
/// own: an in-toto Statement v1 whose subject is the evidence bundle (its SHA-256), whose predicate says what the
/// reviewer decided, wrapped in a DSSE envelope signed with the reviewer's Ed25519 key over DSSE's pre-authentication
/// encoding. Tools that know in-toto and DSSE read and check it; `verify CERTIFICATE.json --trusted-key` does here.
/// Only a certificate says CERTIFIED: a partner's run never does.
package enum Certificate {
    /// DSSE's payload type for an in-toto Statement.
    package static let payloadType = "application/vnd.in-toto+json"
    package static let statementType = "https://in-toto.io/Statement/v1"
    /// Ours: the predicate's shape below, version 1.
    package static let predicateType = "urn:appflip-conformance:certificate:v1"

    package struct Failure: Error, Sendable {
        package var message: String
    }

    /// The envelope (DSSE v1): the statement, base64, and its signatures over `PAE(payloadType, payload)`.
    package struct Envelope: Codable, Sendable {
        package var payloadType: String
        package var payload: String
        package var signatures: [Signature]

        package struct Signature: Codable, Sendable {
            /// The signing key's fingerprint (`SHA256:…`, as `ssh-keygen -l` writes it).
            package var keyid: String
            package var sig: String
        }
    }

    /// The in-toto Statement v1.
    package struct Statement: Codable, Sendable {
        package var type: String
        package var subject: [Subject]
        package var predicateType: String
        package var predicate: Predicate

        package struct Subject: Codable, Sendable {
            package var name: String
            package var digest: [String: String]
        }

        enum CodingKeys: String, CodingKey {
            case type = "_type"
            case subject, predicateType, predicate
        }
    }

    /// What the reviewer decided, and on what.
    package struct Predicate: Codable, Sendable {
        package var reviewer: String
        /// YYYY-MM-DD.
        package var date: String
        package var suiteVersion: String
        package var casesSha256: String
        package var catalogSha256: String
        /// Who signed the bundle, when it was signed: the fingerprint of the key, which the reviewer trusted.
        package var bundleSignedBy: String?
        package var programs: [Program]
        /// The reviewer's own judgements of the requirements no machine judges: the ones counted.
        package var attestations: [ResultsDocument.AttestationEntry]
        /// What the bundle's own attestation file said (usually the partner's): shown, never counted.
        package var partnerAttestations: [ResultsDocument.AttestationEntry]
        /// `reproduced N of N on YYYY-MM-DD` when the reviewer re-ran the cases.
        package var rerun: String?

        package init(
            reviewer: String, date: String, suiteVersion: String, casesSha256: String, catalogSha256: String, bundleSignedBy: String?,
            programs: [Program], attestations: [ResultsDocument.AttestationEntry], partnerAttestations: [ResultsDocument.AttestationEntry],
            rerun: String?
        ) {
            self.reviewer = reviewer
            self.date = date
            self.suiteVersion = suiteVersion
            self.casesSha256 = casesSha256
            self.catalogSha256 = catalogSha256
            self.bundleSignedBy = bundleSignedBy
            self.programs = programs
            self.attestations = attestations
            self.partnerAttestations = partnerAttestations
            self.rerun = rerun
        }

        package struct Program: Codable, Sendable, Hashable {
            package var program: String
            package var title: String
            /// Always `certified`: a program that is not gets no certificate.
            package var outcome: String
            package var cases: Int

            package init(program: String, title: String, outcome: String, cases: Int) {
                self.program = program
                self.title = title
                self.outcome = outcome
                self.cases = cases
            }
        }
    }

    /// DSSE's pre-authentication encoding: `DSSEv1 LEN(type) type LEN(body) body`, lengths in ASCII decimal bytes.
    package static func preAuthenticationEncoding(type: String, body: [UInt8]) -> [UInt8] {
        Array("DSSEv1 \(type.utf8.count) \(type) \(body.count) ".utf8) + body
    }

    /// The signed envelope's bytes for `predicate` about the bundle named `name` with SHA-256 `bundleDigest`.
    package static func make(
        predicate: Predicate, bundleName: String, bundleDigest: String, privateKeyPEM: [UInt8]
    ) throws(Failure) -> [UInt8] {
        let statement = Statement(
            type: statementType, subject: [Statement.Subject(name: bundleName, digest: ["sha256": bundleDigest])],
            predicateType: predicateType, predicate: predicate)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let body = try? encoder.encode(statement) else { throw Failure(message: "cannot encode the statement") }
        let signed: Ed25519.Signed
        do {
            signed = try Ed25519.sign(preAuthenticationEncoding(type: payloadType, body: [UInt8](body)), privateKeyPEM: privateKeyPEM)
        } catch {
            throw Failure(message: "--sign-key: \(error.message)")
        }
        let envelope = Envelope(
            payloadType: payloadType, payload: body.base64EncodedString(),
            signatures: [Envelope.Signature(keyid: signed.fingerprint, sig: Data(signed.signature).base64EncodedString())])
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(envelope) else { throw Failure(message: "cannot encode the envelope") }
        return [UInt8](data) + [0x0A]
    }

    /// What a certificate says once checked: the statement, and the trusted key that signed it (nil when none did).
    package struct Verification: Sendable {
        package var statement: Statement
        package var signedBy: String?
        package var problems: [String]
    }

    /// Whether `bytes` look like a certificate (a DSSE envelope) rather than a bundle: a JSON object naming a payload type.
    package static func looksLikeCertificate(_ bytes: [UInt8]) -> Bool {
        guard let first = bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }), first == UInt8(ascii: "{") else { return false }
        return bytes.count < 4 << 20 && String(decoding: bytes, as: UTF8.self).contains("\"payloadType\"")
    }

    /// Reads an envelope and checks it: the payload type, the statement's type, subject and predicate type, and a
    /// signature by one of `trusted` (fingerprint and PEM) over the pre-authentication encoding. Throws only when
    /// the file is no envelope at all.
    package static func verify(_ bytes: [UInt8], trusted: [(fingerprint: String, pem: [UInt8])]) throws(Failure) -> Verification {
        do {
            try JSONReader.check(bytes)
        } catch {
            throw Failure(message: "not a certificate: " + (error.isRepeatedMember ? error.message : "not JSON"))
        }
        guard let envelope = try? JSONDecoder().decode(Envelope.self, from: Data(bytes)) else {
            throw Failure(message: "not a certificate: no DSSE envelope (payloadType, payload, signatures)")
        }
        guard let body = Data(base64Encoded: envelope.payload).map([UInt8].init) else {
            throw Failure(message: "not a certificate: its payload is not base64")
        }
        do {
            try JSONReader.check(body)
        } catch {
            throw Failure(message: "not a certificate: its payload is not JSON")
        }
        guard let statement = try? JSONDecoder().decode(Statement.self, from: Data(body)) else {
            throw Failure(message: "not a certificate: its payload is no in-toto Statement with this suite's predicate")
        }
        var problems: [String] = []
        if envelope.payloadType != payloadType { problems.append("the payload type is '\(envelope.payloadType)', not \(payloadType)") }
        if statement.type != statementType { problems.append("the statement's type is '\(statement.type)', not \(statementType)") }
        if statement.predicateType != predicateType {
            problems.append("the predicate type is '\(statement.predicateType)', not \(predicateType)")
        }
        if statement.subject.count != 1 || statement.subject.first?.digest["sha256"]?.count != 64 {
            problems.append("the statement does not name one bundle by its SHA-256")
        }
        let message = preAuthenticationEncoding(type: envelope.payloadType, body: body)
        var signedBy: String?
        for signature in envelope.signatures {
            guard let sig = Data(base64Encoded: signature.sig).map([UInt8].init) else { continue }
            for key in trusted {
                if let (valid, fingerprint) = try? Ed25519.verify(sig, of: message, publicKeyPEM: key.pem), valid {
                    signedBy = fingerprint
                }
            }
        }
        if signedBy == nil {
            let ids = envelope.signatures.map(\.keyid).joined(separator: ", ")
            problems.append(
                envelope.signatures.isEmpty
                    ? "it carries no signature"
                    : "no signature checks against a trusted key (it names \(ids)): signed by another key, or edited after signing")
        }
        return Verification(statement: statement, signedBy: signedBy, problems: problems)
    }
}
