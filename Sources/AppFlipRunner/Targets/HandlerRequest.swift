import AppFlipModel
import Foundation

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

    /// The request as one JSON line, newline included.
    package var jsonLine: [UInt8] {
        let object: [String: String] = ["id": id, "link": link, "scenario": scenario.rawValue]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return [UInt8](data) + [0x0A]
    }
}
