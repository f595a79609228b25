import AppFlipConformance
import FlipHandler
import Foundation
import Testing

/// The app's handler behind the suite's in-process protocol: what the app would do for each simulated user.
struct AppHandler: AppFlipLinkHandler {
    func handle(_ link: URL, scenario: Scenario) async throws -> HandlerAnswer {
        switch FlipRequest.check(link, clientID: "google-client") {
        case .ignore:
            return .decline
        case .invalid(let answer):
            return .open(answer, universalLinksOnly: true)
        case .valid(let request):
            switch scenario {
            case .consent, .secondUser: return .open(request.approved(code: UUID().uuidString + UUID().uuidString), universalLinksOnly: true)
            case .deny: return .open(request.failed(.accessDenied), universalLinksOnly: true)
            case .cancel: return .open(request.failed(.cancelled), universalLinksOnly: true)
            case .disabledAccount: return .open(request.failed(.unrecoverable), universalLinksOnly: true)
            }
        }
    }
}

// Every App Flip link case of the suite, one test per case ID.
@Test(arguments: AppFlipConformance.cases(.appLink))
func appFlip(_ conformanceCase: ConformanceCase) async throws {
    try await conformanceCase.check(against: .handler(AppHandler(), link: .init("https://app.example/flip", clientID: "google-client")))
}
