import AppFlipModel
import Foundation

/// One request of the adapter contract: `{"id": …, "link": …, "scenario": …}`.
public struct HandlerRequest: Sendable, Hashable {
    public var id: String
    public var link: String
    public var scenario: Scenario

    public init(id: String, link: String, scenario: Scenario) {
        self.id = id
        self.link = link
        self.scenario = scenario
    }

    /// The request as one JSON line, newline included.
    public var jsonLine: [UInt8] {
        let object: [String: String] = ["id": id, "link": link, "scenario": scenario.rawValue]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return [UInt8](data) + [0x0A]
    }
}
