import AppFlipModel

extension Check {
    /// Whether the check applies to this observation; when it does not, why.
    package func applicability(_ observation: Observation) -> String? {
        switch scope {
        case .answer, .samples:
            return nil
        case .openedURL:
            switch observation {
            case .link(let answer):
                return answer.action == .open && answer.url != nil ? nil : "nothing was opened (the handler declined), so there is no URL to judge"
            case .http(let response):
                return response.asAnswer.action == .open ? nil : "\(observation.summary) is not a redirect, so there is no Location to judge"
            case .unreachable, .handshake:
                return "\(observation.summary), so there is no Location to judge"
            case .native, .activity:
                return "\(observation.appStepNoun ?? "the step") opens no link"
            }
        case .response:
            switch observation {
            case .http: return nil
            case .link: return "a link handler's answer has no HTTP response"
            case .unreachable, .handshake: return "\(observation.summary), so there is no response to judge"
            case .native: return "\(observation.appStepNoun ?? "the step") is judged on the app and the server's requests"
            case .activity: return "\(observation.appResultNoun ?? "the step") has no HTTP response"
            }
        case .transport:
            return nil
        case .native:
            return NativeObservation.applicability(of: self, to: observation)
        case .activity:
            return ActivityResult.applicability(of: self, to: observation)
        }
    }
}
