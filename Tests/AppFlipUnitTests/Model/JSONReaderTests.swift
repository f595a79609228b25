import AppFlipBase
import AppFlipModel
import AppFlipTestSupport
import Foundation
import Testing

/// The answer-line reader against Foundation's JSONSerialization, the parser it replaced: on a corpus of valid and
/// broken JSON and on thousands of seeded mutations of real answer lines, both accept the same texts as an object,
/// and read the same id, action, url and flag from them.
@Suite("JSON reader")
struct JSONReaderTests {
    /// What each parser makes of a text: nil when it is not a JSON object, else the members the contract reads.
    struct Reading: Equatable {
        var id: String?
        var action: String?
        var url: String?
        /// "true", "false", "other" (present but not a boolean) or nil (absent).
        var flag: String?
    }

    static func ours(_ bytes: [UInt8]) -> Reading? {
        guard let value = try? JSONReader.read(bytes), case .object = value else { return nil }
        let flag: String? = value.member("universal_links_only").map { member in
            if case .bool(let bool) = member { return bool ? "true" : "false" }
            return "other"
        }
        return Reading(
            id: value.member("id")?.string, action: value.member("action")?.string, url: value.member("url")?.string,
            flag: flag)
    }

    static func foundation(_ bytes: [UInt8]) -> Reading? {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] else { return nil }
        let flag: String? = object["universal_links_only"].map { member in
            guard let number = member as? NSNumber, !(member is String) else { return "other" }
            let type = String(cString: number.objCType)
            return type == "c" || type == "B" ? (number.boolValue ? "true" : "false") : "other"
        }
        return Reading(id: object["id"] as? String, action: object["action"] as? String, url: object["url"] as? String, flag: flag)
    }

    static let corpus: [String] = [
        #"{"id":"a","action":"decline"}"#,
        #" {"id" : "a" , "action" : "open", "url" : "https:\/\/x.example\/?a=1&b=%20", "universal_links_only" : true } "#,
        "\t\r\n{\"id\":\"\\u00e9\\ud83d\\ude00\",\"action\":\"open\",\"url\":\"u\",\"universal_links_only\":false}\n",
        #"{"id":"a","nested":{"x":[1,-0,0.5,1e10,-2.5E-3,true,false,null,[],{}]},"action":"decline"}"#,
        #"{"id":"a","id":"b","action":"decline"}"#,
        #"{"id":"a","universal_links_only":1}"#,
        #"{"id":"a","universal_links_only":"true"}"#,
        #"{"id":"a","universal_links_only":null}"#,
        #"{"id":"\"\\\/\b\f\n\r\t"}"#,
        #"{}"#, #"[]"#, #"[{"id":"a"}]"#, #""id""#, "1", "true", "null", "",
        #"{"id":"a",}"#, #"{"id":"a" "action":"b"}"#, #"{"id":01}"#, #"{"id":-}"#, #"{"id":1.}"#, #"{"id":.5}"#,
        #"{"id":1e}"#, #"{"id":+1}"#, #"{"id":"a"#, "{\"id\":\"a\u{01}\"}", #"{"id":"\ud800"}"#, #"{"id":"\udc00"}"#,
        #"{"id":"\ud800\u0041"}"#, #"{"id":"\x41"}"#, #"{"id":"\u00G0"}"#, #"{"id":"a"} x"#, #"{"id":"a"}}"#,
        #"{"id":NaN}"#, #"{"id":Infinity}"#, #"{'id':'a'}"#, #"{id:"a"}"#, #"{"id":"a"/*c*/}"#, #"{"id":tru}"#,
        #"{"id":[1,2,]}"#, #"{"id":[,1]}"#, #"{"a":{"b":"c"},}"#, "{\"id\":\"a\"}\u{0}", "\u{FEFF}{\"id\":\"a\"}",
        #"{"id":"a","url":""}"#, #"{"id":12345678901234567890123}"#, #"{"id":1E400}"#, #"{"id":-1e-400}"#,
    ]

    @Test("Every corpus text is an object to both or to neither, and both read the same members", arguments: corpus)
    func corpusAgrees(_ text: String) {
        let bytes = Array(text.utf8)
        // The decisions where the RFC wins: see `decisions` (a number beyond Double) and `repeatedMembers`.
        guard !text.contains("E400"), !text.contains(#""id":"a","id""#) else { return }
        #expect(Self.ours(bytes) == Self.foundation(bytes), "\(text.debugDescription)")
    }

    @Test("A member repeated in one object is refused as ambiguous, however its name is spelt; the same name in two objects is not")
    func repeatedMembers() throws {
        for text in [
            #"{"id":"a","id":"b","action":"decline"}"#, #"{"id":"a","\u0069d":"b"}"#, #"{"x":[{"k":1,"k":2}],"id":"a"}"#,
            #"{"outcome":{"verdict":"fail"},"outcome":{"verdict":"pass"}}"#,
        ] {
            do {
                try JSONReader.check(Array(text.utf8))
                Issue.record("read: \(text)")
            } catch {
                #expect(error.isRepeatedMember && error.message.contains("appears twice in one object"), "\(error.message)")
            }
            #expect(Self.ours(Array(text.utf8)) == nil, "\(text)")
        }
        #expect(Self.ours(Array(#"{"id":"a","x":{"id":"b"},"y":[{"id":"c"},{"id":"d"}]}"#.utf8)) == Reading(id: "a"))
        try JSONReader.check(Array(#"{"a":{"k":1},"b":{"k":2}}"#.utf8))
    }

    @Test("A native app's answer with a repeated member is ambiguous, not read; one without is read")
    func nativeAnswers() throws {
        switch NativeAnswer.parse(
            Array(#"{"id":"n1","action":"rejected","action":"open-browser","url":"https://x.example/"}"#.utf8), expectedID: "n1")
        {
        case .success(let answer): Issue.record("read as \(answer.action)")
        case .failure(let problem): #expect(problem.message.contains("ambiguous: the member \"action\" appears twice"), "\(problem.message)")
        }
        #expect(
            try NativeAnswer.parse(Array(#"{"id":"n1","action":"open-browser","url":"https://x.example/"}"#.utf8), expectedID: "n1").get().url
                == "https://x.example/")
    }

    @Test(
        "Decided beside the RFC: a trailing comma and a byte order mark read (as Foundation read them on Linux); a number beyond Double reads (Foundation refused it)"
    )
    func decisions() throws {
        #expect(Self.ours(Array(#"{"id":"a","x":[1,2,],}"#.utf8)) == Reading(id: "a"))
        #expect(Self.ours([0xEF, 0xBB, 0xBF] + Array(#"{"id":"a"}"#.utf8)) == Reading(id: "a"))
        #expect(Self.ours(Array(#"{"id":"a","n":1E400}"#.utf8)) == Reading(id: "a"))
        // Still refused: a lone comma, a comma before the first member, two commas.
        for text in [#"{,}"#, #"[,]"#, #"{"id":"a",,}"#, #"[1,,]"#] {
            #expect(Self.ours(Array(text.utf8)) == nil, "\(text)")
        }
    }

    @Test("Nesting deeper than 512 levels is refused; 511 is read")
    func depth() {
        let deep = Array((String(repeating: "[", count: 600) + String(repeating: "]", count: 600)).utf8)
        #expect(throws: JSONReader.Failure.self) { try JSONReader.read(deep) }
        let fine = Array(("{\"a\":" + String(repeating: "[", count: 510) + String(repeating: "]", count: 510) + "}").utf8)
        #expect((try? JSONReader.read(fine)) != nil)
    }

    @Test("Seeded mutations of real answer lines: both parsers agree on every one that is valid UTF-8")
    func mutations() {
        let seeds = [
            #"{"id":"r1","action":"open","url":"https://oauth-redirect.googleusercontent.com/a/com.google.OPA?code=abc&state=x","universal_links_only":true}"#,
            #"{"id":"r2","action":"decline"}"#,
            "{\"id\":\"r3\\u00e9\",\"action\":\"open\",\"url\":\"a\\/b\",\"extra\":[1,2.5e3,{\"k\":null}]}",
        ].map { Array($0.utf8) }
        let interesting = Array(#"{}[]",:"\/ 0123456789eE+-.truefalsn"#.utf8) + [0x00, 0x09, 0x0A, 0x1F, 0x7F, 0xC3, 0xA9]
        var generator = Mutator(seed: 20_261_123)
        var compared = 0
        var disagreements: [String] = []
        for _ in 0..<6000 {
            var bytes = seeds[generator.below(seeds.count)]
            for _ in 0..<(1 + generator.below(3)) {
                let position = generator.below(bytes.count + 1)
                let byte = interesting[generator.below(interesting.count)]
                switch generator.below(3) {
                case 0 where position < bytes.count: bytes[position] = byte
                case 1 where position < bytes.count: bytes.remove(at: position)
                default: bytes.insert(byte, at: position)
                }
            }
            guard String(validating: bytes, as: UTF8.self) != nil else { continue }
            compared += 1
            if Self.ours(bytes) != Self.foundation(bytes) { disagreements.append(String(decoding: bytes, as: UTF8.self).debugDescription) }
        }
        #expect(disagreements.isEmpty, "\(disagreements.count) disagreements, first: \(disagreements.prefix(5))")
        #expect(compared > 2000)
    }
}
