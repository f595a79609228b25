import AppFlipChecks
import AppFlipModel
import Testing

/// `credentials: absent`: a token or a secret in the opened URL's query or fragment fails, in any case of its name;
/// a code in the fragment (where it does not belong: `params`, `fragment`) is not a token.
@Suite("The credentials check")
struct CredentialsCheckTests {
    private let context = Template.Context(
        configuration: RunConfiguration(link: "https://a.example/f", clientID: "c"),
        generated: GeneratedValues(seed: 1, caseID: "x"))

    private func outcome(_ url: String) -> CheckOutcome {
        CredentialsCheck().evaluate(.link(HandlerAnswer(action: .open, url: url)), in: context)
    }

    @Test(
        "A token or secret anywhere in the URL fails",
        arguments: [
            "https://h.example/a/b?code=c&state=s#access_token=t", "https://h.example/a/b?code=c&ID_TOKEN=t&state=s",
            "https://h.example/a/b?client_secret=x", "https://h.example/a/b#token=t&refresh_token=r",
        ])
    func fails(_ url: String) {
        guard case .violated = outcome(url) else { return #expect(Bool(false), "\(url): \(outcome(url))") }
    }

    @Test(
        "A code and state, in the query or the fragment, and an error hold",
        arguments: [
            "https://h.example/a/b?code=c&state=s", "https://h.example/a/b#code=c&state=s", "https://h.example/a/b?error=access_denied&state=s",
            "https://h.example/a/b?code=c&state=token",
        ])
    func holds(_ url: String) {
        guard case .held = outcome(url) else { return #expect(Bool(false), "\(url): \(outcome(url))") }
    }
}
