/// A native-client step: one command to the app, with what the test authorization server answers from then on.
package struct NativeStep: Sendable, Hashable {
    package enum Command: String, Sendable, Hashable, CaseIterable {
        /// A whole sign-in: the app's authorization request, the server's answer, the redirect back, the code exchange.
        case signIn = "sign_in"
        /// The last sign-in's redirect delivered again, as an attacker replaying a captured response would.
        case replayRedirect = "replay_redirect"
        /// A fresh response (a valid code, a state the app never issued) delivered to the app's redirect URI when it
        /// has no sign-in pending, as a login-CSRF attacker would.
        case unsolicitedRedirect = "unsolicited_redirect"
        case refresh
        case callAPI = "call_api"
        case signOut = "sign_out"
    }

    package var command: Command
    package var server: NativeServerScript

    package init(command: Command, server: NativeServerScript = NativeServerScript()) {
        self.command = command
        self.server = server
    }
}
