import AppFlipModel
import AppFlipRunner
import Testing

/// The Android adapter contract's wire format: the request line as written, and every answer read, a malformed one
/// refused with a precise message, a well-formed one that breaks App Flip's rules read as it is for the checks.
@Suite("Android adapter contract")
struct AndroidContractTests {
    @Test("The request names the intent's action, package, typed extras in order, the caller and the scenario")
    func requestLine() {
        let intent = AndroidIntent(
            action: "a.ACTION", package: "a.pkg",
            extras: [NamedExtra("CLIENT_ID", .string("c\"id")), NamedExtra("SCOPE", .stringArray(["s1", "s2"])), NamedExtra("N", .int(-3))],
            caller: AndroidCaller(package: "g.app", signatureSHA256: "AB:CD"))
        let line = String(decoding: HandlerRequest(id: "r1", intent: intent, scenario: .deny).jsonLine, as: UTF8.self)
        #expect(
            line
                == #"{"id":"r1","intent":{"action":"a.ACTION","package":"a.pkg","extras":{"CLIENT_ID":{"type":"String","value":"c\"id"},"SCOPE":{"type":"String[]","value":["s1","s2"]},"N":{"type":"int","value":-3}}},"caller":{"package":"g.app","signature_sha256":"AB:CD"},"scenario":"deny"}"#
                + "\n")
        let anonymous = AndroidIntent(action: "a", package: "p", extras: [], caller: nil)
        #expect(String(decoding: HandlerRequest(id: "r2", intent: anonymous, scenario: .consent).jsonLine, as: UTF8.self).contains(#""caller":null"#))
    }

    private func parse(_ text: String) -> Result<ActivityResult, AnswerParser.AnswerError> {
        ActivityAnswerParser.parse(AnswerParser.Line(Array(text.utf8)), expectedID: "r1")
    }

    @Test("A well-formed answer is read with its types, a wrong type kept for the checks to judge")
    func wellFormed() throws {
        let result = try parse(
            #"{"id":"r1","result_code":-2,"finished":true,"data":{"extras":{"ERROR_TYPE":{"type":"String","value":"2"},"ERROR_CODE":{"type":"int","value":13},"X":{"type":"long","value":5}}}}"#
        ).get()
        #expect(result.resultCode == -2 && result.finished)
        #expect(result.extra("ERROR_TYPE") == .string("2"))
        #expect(result.extra("ERROR_CODE") == .int(13))
        #expect(result.extra("X") == .other(type: "long", json: "5"))
        let cancel = try parse(#"{"id":"r1","result_code":0,"data":null,"finished":false}"#).get()
        #expect(cancel.data == nil && !cancel.finished)
    }

    @Test(
        "A malformed answer is refused, saying what is wrong",
        arguments: [
            (#"{"id":"r1","data":null,"finished":true}"#, "integer \"result_code\""),
            (#"{"id":"r1","result_code":"-1","data":null,"finished":true}"#, "integer \"result_code\""),
            (#"{"id":"r1","result_code":-1,"data":null}"#, "\"finished\""),
            (#"{"id":"r1","result_code":-1,"finished":true}"#, "no \"data\""),
            (#"{"id":"r1","result_code":-1,"data":{"extras":[]},"finished":true}"#, "\"data\" is null or an object"),
            (
                #"{"id":"r1","result_code":-1,"data":{"extras":{"AUTHORIZATION_CODE":"abc"}},"finished":true}"#,
                "AUTHORIZATION_CODE\" is not an object"
            ),
            (#"{"id":"r1","result_code":-1,"data":{"extras":{"ERROR_TYPE":{"type":"int","value":"2"}}},"finished":true}"#, "not a 32-bit integer"),
            (#"{"id":"r2","result_code":-1,"data":null,"finished":true}"#, "not for the request sent"),
            ("not json", "not a JSON object"),
            (#"{"id":"r1","result_code":-2,"result_code":-1,"data":null,"finished":true}"#, "ambiguous: the member \"result_code\" appears twice"),
        ])
    func malformed(_ text: String, _ message: String) {
        switch parse(text) {
        case .success: Issue.record("accepted: \(text)")
        case .failure(let problem): #expect(problem.message.contains(message), "\(problem.message)")
        }
    }
}
