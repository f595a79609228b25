import AppFlipChecks
import AppFlipModel
import Testing

@Suite("Site association")
struct SiteAssociationTests {
    let appID = "TEAM.com.example.app"

    private func covers(_ json: String, link: String = "https://app.example/flip") -> Bool {
        var configuration = RunConfiguration(link: link, clientID: "c")
        configuration.appID = appID
        let judge = Judge(context: Template.Context(configuration: configuration, generated: GeneratedValues(seed: 1, caseID: "x")))
        let group = CheckGroup(
            requirement: RequirementReference(id: "AF-LINK-001", level: .must),
            expectation: .all([.siteAssociationCovers]), location: .init(file: "f", line: 1, column: 1))
        let observation = HTTPObservation(status: 200, headers: [], body: Array(json.utf8))
        return judge.judge([group], observation: .http(observation)).first?.held ?? false
    }

    @Test("The components form: path patterns, first match decides, exclude refuses")
    func components() {
        #expect(covers(#"{"applinks":{"details":[{"appIDs":["TEAM.com.example.app"],"components":[{"/":"/flip"}]}]}}"#))
        #expect(covers(#"{"applinks":{"details":[{"appIDs":["TEAM.com.example.app"],"components":[{"/":"/fl*"}]}]}}"#))
        #expect(!covers(#"{"applinks":{"details":[{"appIDs":["TEAM.com.example.app"],"components":[{"/":"/flip","exclude":true},{"/":"*"}]}]}}"#))
        #expect(!covers(#"{"applinks":{"details":[{"appIDs":["TEAM.com.example.app"],"components":[{"/":"/other"}]}]}}"#))
    }

    @Test("The legacy paths form, with NOT")
    func paths() {
        #expect(covers(#"{"applinks":{"details":[{"appID":"TEAM.com.example.app","paths":["/flip"]}]}}"#))
        #expect(covers(#"{"applinks":{"details":[{"appID":"TEAM.com.example.app","paths":["/f?ip"]}]}}"#))
        #expect(!covers(#"{"applinks":{"details":[{"appID":"TEAM.com.example.app","paths":["NOT /flip","*"]}]}}"#))
    }

    @Test("A '?' rule is matched on the query items' values, not only on their names")
    func queryValues() {
        let rule = { (pattern: String) in
            #"{"applinks":{"details":[{"appIDs":["TEAM.com.example.app"],"components":[{"/":"/flip","?":"# + pattern + "}]}]}}"
        }
        #expect(covers(rule(#"{"client_id":"c"}"#)))
        #expect(covers(rule(#"{"client_id":"?","redirect_uri":"https://oauth-redirect*"}"#)))
        #expect(!covers(rule(#"{"client_id":"someone-else"}"#)), "the name is there, but the value does not match")
        #expect(!covers(rule(#"{"redirect_uri":"https://example.com/*"}"#)))
        #expect(!covers(rule(#"{"nonce":"?*"}"#)), "an item the link does not carry matches only '*'")
        #expect(covers(rule(#"{"nonce":"*"}"#)))
    }

    @Test("Another app, no applinks, or not JSON do not cover the link")
    func notCovered() {
        #expect(!covers(#"{"applinks":{"details":[{"appID":"OTHER.com.example.app","paths":["*"]}]}}"#))
        #expect(!covers(#"{"webcredentials":{}}"#))
        #expect(!covers("<html>"))
    }
}
