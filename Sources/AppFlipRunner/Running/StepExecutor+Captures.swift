import AppFlipBase
import AppFlipHTTP
import AppFlipModel
import Foundation

/// What a step captures for the steps after it: a redirect's or opened URL's parameter, a JSON member, a header, the body.
extension StepExecutor {
    func value(of source: Capture.Source, in observation: Observation) -> String? {
        switch source {
        case .urlParameter(let name):
            guard let url = observation.capturedURL else { return nil }
            let matches = URLParts(url).parameters.all(named: name)
            guard matches.count == 1, let bytes = matches[0].value, !bytes.isEmpty else { return nil }
            return String(decoding: bytes, as: UTF8.self)
        case .jsonMember(let member):
            guard case .http(let response) = observation,
                let object = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any]
            else { return nil }
            if let text = object[member] as? String, !text.isEmpty { return text }
            if let number = object[member] as? NSNumber {
                // A JSON false is no value: `when_captured` then reads it as "not advertised".
                if String(cString: number.objCType) == "c" { return number.boolValue ? "true" : nil }
                return number.stringValue
            }
            return nil
        case .header(let name):
            guard case .http(let response) = observation else { return nil }
            return response.header(name)
        case .body:
            guard case .http(let response) = observation, !response.body.isEmpty else { return nil }
            return response.bodyText
        case .extra(let name):
            guard case .activity(let result) = observation, let text = result.extra(name)?.string, !text.isEmpty else { return nil }
            return text
        }
    }

    func describe(_ source: Capture.Source) -> String {
        switch source {
        case .urlParameter(let name): "the \(name) parameter of the redirect or opened URL"
        case .jsonMember(let member): "the JSON member \(member)"
        case .header(let name): "the \(name) header"
        case .body: "the response body"
        case .extra(let name): "the String extra \(name) of the activity's result"
        }
    }
}
