import AppFlipModel
import AppFlipReference
import AppFlipRunner

/// The reference Android activity called in-process: no subprocess, no JSON. For fast tests of the cases themselves.
package struct InProcessAndroidTarget: ExchangeTarget {
    package var handler: AndroidActivity

    package init(handler: AndroidActivity) {
        self.handler = handler
    }

    package var description: String { "in-process reference Android activity" }

    package func makeSession() -> any ExchangeSession { InProcessAndroidSession(handler: handler) }
}

final class InProcessAndroidSession: ExchangeSession {
    let handler: AndroidActivity

    init(handler: AndroidActivity) {
        self.handler = handler
    }

    func exchange(_ request: HandlerRequest, timeout: Double) -> TargetExchange {
        guard let intent = request.payload as? AndroidIntent else { return TargetExchange(failure: "an Android activity is started with an intent") }
        var extras: [String: AndroidActivity.Extra] = [:]
        for extra in intent.extras {
            extras[extra.name] =
                switch extra.value {
                case .string(let text): .string(text)
                case .stringArray(let texts): .strings(texts)
                case .int(let number): .int(number)
                case .other(let type, _): .unread(type: type)
                }
        }
        let caller = intent.caller.map { AndroidActivity.Caller(package: $0.package, signature: $0.signatureSHA256) }
        let result = handler.handle(
            extras: extras, caller: caller, scenario: AndroidActivity.Scenario(rawValue: request.scenario.rawValue) ?? .consent)
        let data = result.extras.map { put in
            put.map { name, value in
                switch value {
                case .string(let text): NamedExtra(name, .string(text))
                case .strings(let texts): NamedExtra(name, .stringArray(texts))
                case .int(let number): NamedExtra(name, .int(number))
                case .unread(let type): NamedExtra(name, .other(type: type, json: "null"))
                }
            }
        }
        var exchange = TargetExchange(rawAnswer: "result \(result.code)")
        exchange.activityResult = ActivityResult(resultCode: result.code, data: data, finished: result.finished)
        return exchange
    }

    func close() {}
}
