import AppFlipBase
import AppFlipChecks
import Foundation
import Testing

@testable import AppFlipModel

@Suite("Judge")
struct JudgeTests {
    let configuration = RunConfiguration(link: "https://app.example/flip", clientID: "cid", seed: 1)
    let must = RequirementReference(id: "AF-LINK-010", level: .must)
    let should = RequirementReference(id: "AF-LINK-019", level: .should)
    let may = RequirementReference(id: "AF-LINK-017", level: .may)
    let flip = "https://oauth-redirect.googleusercontent.com/a/com.google.OPA"

    private func judge(sentState: String, answerURL: String, _ assertions: [AnyCheck], level: RequirementReference? = nil) -> [CheckResult] {
        let link = "https://app.example/flip?client_id=cid&state=\(sentState)&redirect_uri=\(FormEncoding.encode(flip))"
        let judge = Judge(sentLink: link, configuration: configuration, generated: GeneratedValues(seed: 1, caseID: "x"))
        return judge.judge(
            [
                CheckGroup(
                    requirement: level ?? must, expectation: .all(assertions),
                    location: .init(file: "f", line: 1, column: 1))
            ],
            answer: HandlerAnswer(action: .open, url: answerURL, universalLinksOnly: false))
    }

    struct Echo: Sendable, CustomTestStringConvertible {
        var sent: String
        var returned: String
        var held: Bool
        var testDescription: String { "sent \(sent), returned \(returned)" }
    }

    static let echoes: [Echo] = [
        Echo(sent: "a%2Bb%20c", returned: "a%2Bb%20c", held: true),
        Echo(sent: "a%2Bb%20c", returned: "a%2bb+c", held: true),  // '+' for space and lower-case hex are legitimate
        Echo(sent: "a%2Bb%20c", returned: "a+b%20c", held: false),  // '+' left unencoded decodes to a space
        Echo(sent: "100%25", returned: "100%25", held: true),
        Echo(sent: "100%25", returned: "100%", held: false),  // a broken escape
        Echo(sent: "%FF%FE", returned: "%ff%fe", held: true),  // bytes, not text, are compared
        Echo(sent: "a%26code%3DEVIL", returned: "a&code=EVIL", held: false),
        Echo(sent: "abc", returned: "abcd", held: false),
    ]

    @Test("state is compared as bytes after one decoding", arguments: echoes)
    func stateEcho(_ echo: Echo) {
        let results = judge(sentState: echo.sent, answerURL: "\(flip)?code=c0de&state=\(echo.returned)", [.state(.echoed)])
        #expect(results.map(\.held) == [echo.held], "\(results.map(\.observed))")
    }

    @Test("A violated check costs what its level says: MUST fails, SHOULD warns, MAY informs")
    func levels() {
        let url = "\(flip)?code=c&state=abc"
        #expect(judge(sentState: "xyz", answerURL: url, [.state(.echoed)], level: must).first?.verdict == .fail)
        #expect(judge(sentState: "xyz", answerURL: url, [.state(.echoed)], level: should).first?.verdict == .warn)
        #expect(judge(sentState: "xyz", answerURL: url, [.state(.echoed)], level: may).first?.verdict == .info)
        #expect(judge(sentState: "abc", answerURL: url, [.state(.echoed)], level: must).first?.verdict == .pass)
    }

    @Test("Strict parameters accept either success or error shapes and nothing else")
    func strictParameters() {
        let ok = [
            "\(flip)?code=c&state=s", "\(flip)?state=s&code=c", "\(flip)?error=access_denied&state=s",
            "\(flip)?error=invalid_request&error_description=Invalid%20Request", "\(flip)?code=c&state=s&iss=https%3A%2F%2Fas",
        ]
        for url in ok {
            #expect(judge(sentState: "s", answerURL: url, [.strictParameters]).first?.held == true, "\(url)")
        }
        let bad = [
            "\(flip)?code=c&code=d&state=s", "\(flip)?code=c&error=x", "\(flip)?state=s", "\(flip)?code=c&access_token=t",
            "\(flip)?code=c&state=a b", "\(flip)?code=c&state=%ZZ", "\(flip)?code=c&error_description=x",
        ]
        for url in bad {
            #expect(judge(sentState: "s", answerURL: url, [.strictParameters]).first?.held == false, "\(url)")
        }
    }

    @Test("A code must be present once, non-empty and visible ASCII")
    func code() {
        #expect(judge(sentState: "s", answerURL: "\(flip)?code=abc", [.code(.present)]).first?.held == true)
        #expect(judge(sentState: "s", answerURL: "\(flip)?code=", [.code(.present)]).first?.held == false)
        #expect(judge(sentState: "s", answerURL: "\(flip)?code=a%0Ab", [.code(.present)]).first?.held == false)
        #expect(judge(sentState: "s", answerURL: "\(flip)?error=x", [.code(.present)]).first?.held == false)
        #expect(judge(sentState: "s", answerURL: "\(flip)?error=x", [.code(.absent)]).first?.held == true)
    }

    @Test("error must be one of the allowed values, compared exactly")
    func errorValues() {
        let allowed: Set<String> = ["cancelled", "unrecoverable", "invalid_request", "access_denied"]
        #expect(judge(sentState: "s", answerURL: "\(flip)?error=access_denied", [.error(allowed)]).first?.held == true)
        #expect(judge(sentState: "s", answerURL: "\(flip)?error=ACCESS_DENIED", [.error(allowed)]).first?.held == false)
        #expect(judge(sentState: "s", answerURL: "\(flip)?error=user_not_authorized", [.error(allowed)]).first?.held == false)
        #expect(judge(sentState: "s", answerURL: "\(flip)?error=canceled", [.error(allowed)]).first?.held == false)
    }

    @Test("url_base compares the opened URL's base exactly with the redirect_uri sent")
    func urlBase() throws {
        let template = try Template.parse("${sent.redirect_uri}")
        #expect(judge(sentState: "s", answerURL: "\(flip)?code=c", [.urlBase(template)]).first?.held == true)
        #expect(judge(sentState: "s", answerURL: "\(flip)/?code=c", [.urlBase(template)]).first?.held == false)
        #expect(
            judge(
                sentState: "s", answerURL: "https://OAUTH-REDIRECT.googleusercontent.com/a/com.google.OPA?code=c",
                [.urlBase(template)]
            ).first?.held == false)
    }

    @Test("error_description outside the RFC 6749 character set is reported")
    func errorDescription() {
        #expect(judge(sentState: "s", answerURL: "\(flip)?error=x&error_description=Bad%20request", [.errorDescriptionCharset]).first?.held == true)
        #expect(judge(sentState: "s", answerURL: "\(flip)?error=x&error_description=%22q%22", [.errorDescriptionCharset]).first?.held == false)
        #expect(judge(sentState: "s", answerURL: "\(flip)?error=x&error_description=%E3%81%82", [.errorDescriptionCharset]).first?.held == false)
        #expect(judge(sentState: "s", answerURL: "\(flip)?error=x", [.errorDescriptionCharset]).first?.held == true)
    }

    @Test("one_of holds when any alternative holds entirely")
    func oneOf() {
        let link = "https://app.example/flip?state=s&redirect_uri=x"
        let judge = Judge(sentLink: link, configuration: configuration, generated: GeneratedValues(seed: 1, caseID: "x"))
        let group = CheckGroup(
            requirement: must, expectation: .oneOf([[.code(.present), .state(.echoed)], [.error(["invalid_request"])]]),
            location: .init(file: "f", line: 1, column: 1))
        let answers = [
            "\(flip)?code=c&state=s": true, "\(flip)?error=invalid_request": true, "\(flip)?code=c&state=t": false,
            "\(flip)?error=cancelled&state=s": false,
        ]
        for (url, held) in answers {
            let result = judge.judge([group], answer: HandlerAnswer(action: .open, url: url))
            #expect(result.map(\.held) == [held], "\(url): \(result.map(\.observed))")
        }
    }

    @Test("Observations never show a code in clear")
    func codesAreRedacted() {
        let results = judge(sentState: "s", answerURL: "\(flip)?code=SECRETCODE123&state=s", [.code(.present), .state(.absent)])
        for result in results {
            #expect(!result.observed.contains("SECRETCODE123"), "\(result.observed)")
        }
    }
}

@Suite("Samples")
struct SampleTests {
    private func judge(_ values: [String], _ assertion: AnyCheck) -> CheckResult? {
        let context = Template.Context(
            configuration: RunConfiguration(link: "https://a.example/f", clientID: "c"),
            generated: GeneratedValues(seed: 1, caseID: "x"), samples: ["code": values])
        let group = CheckGroup(
            requirement: RequirementReference(id: "AF-AUTHZ-014", level: .must), expectation: .all([assertion]),
            location: .init(file: "f", line: 1, column: 1))
        return Judge(context: context).judge([group], observation: .http(HTTPObservation(status: 302, headers: [], body: []))).first
    }

    @Test("A counter is distinct but scores far below 128 bits")
    func counter() {
        let codes = (1...20).map { "code-" + String(format: "%06d", $0) }
        #expect(judge(codes, .distinct("code"))?.held == true)
        #expect(judge(codes, .entropyBits("code", 128))?.held == false)
    }

    @Test("Random base64url codes of 32 characters score above 160 bits")
    func random() {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        var generator = SystemRandomNumberGenerator()
        let codes = (0..<20).map { _ in String((0..<32).map { _ in alphabet[Int(generator.next() % 64)] }) }
        #expect(judge(codes, .entropyBits("code", 160))?.held == true)
    }

    @Test("A repeated code is caught, and one value is not a sample")
    func duplicates() {
        #expect(judge(["a", "b", "a"], .distinct("code"))?.held == false)
        #expect(judge(["only"], .distinct("code"))?.held == false)
    }
}

@Suite("Entropy estimate")
struct EntropyEstimateTests {
    private func random(_ count: Int, length: Int, alphabet: String) -> [String] {
        let letters = Array(alphabet)
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in String((0..<length).map { _ in letters[Int(generator.next() % UInt64(letters.count))] }) }
    }

    @Test("Five random 22-character base64url codes (132 bits) are not understated below 128 bits")
    func smallSampleOfGoodCodes() {
        let codes = random(5, length: 22, alphabet: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        #expect(EntropyEstimate.bits(of: codes) >= 128)
    }

    @Test("64 random hex digits score about 256 bits; 16 score about 64")
    func hex() {
        #expect(EntropyEstimate.bits(of: random(5, length: 64, alphabet: "0123456789abcdef")) >= 240)
        #expect(EntropyEstimate.bits(of: random(20, length: 16, alphabet: "0123456789abcdef")) <= 64)
    }

    @Test("A counter and a timestamp score low whatever the sample size")
    func guessable() {
        #expect(EntropyEstimate.bits(of: (1...30).map { "code-" + String(format: "%06d", $0) }) < 20)
        #expect(EntropyEstimate.bits(of: (0..<20).map { "t-1790000\($0 + 100)" }) < 20)
    }
}
