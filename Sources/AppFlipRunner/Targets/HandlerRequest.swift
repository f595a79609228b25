import AppFlipModel

/// One request of the adapter contract: `{"id": …, "link": …, "scenario": …}`.
package struct HandlerRequest: Sendable, Hashable {
    package var id: String
    package var link: String
    package var scenario: Scenario

    package init(id: String, link: String, scenario: Scenario) {
        self.id = id
        self.link = link
        self.scenario = scenario
    }

    /// The request as one JSON line (members in key order), newline included.
    package var jsonLine: [UInt8] {
        JSONText.object([("id", id), ("link", link), ("scenario", scenario.rawValue)]) + [0x0A]
    }
}
