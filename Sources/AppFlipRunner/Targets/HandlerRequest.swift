import AppFlipBase
import AppFlipModel

/// One request of an adapter contract spoken as JSON Lines: `{"id": …, <the payload's members>, "scenario": …}`
/// (the link handler's `"link"`; each contract's payload writes its own).
package struct HandlerRequest: Sendable {
    package var id: String
    /// What the request hands the app, and how its answer is read: its contract's.
    package var payload: any AdapterPayload
    package var scenario: Scenario

    package init(id: String, payload: any AdapterPayload, scenario: Scenario) {
        self.id = id
        self.payload = payload
        self.scenario = scenario
    }

    /// The request as one JSON line (members in key order), newline included.
    package var jsonLine: [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(payload.estimatedBytes + id.utf8.count + 40)
        output.append(contentsOf: #"{"id":"#.utf8)
        JSONText.appendString(id, to: &output)
        output.append(0x2C)
        payload.appendMembers(to: &output)
        output.append(contentsOf: #","scenario":"#.utf8)
        JSONText.appendString(scenario.rawValue, to: &output)
        output += [0x7D, 0x0A]
        return output
    }
}
