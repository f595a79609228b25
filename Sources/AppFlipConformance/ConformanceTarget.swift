import AppFlipBase
import AppFlipHTTP
import AppFlipModel
import AppFlipReference
import AppFlipRunner
import AppFlipSetup
import Foundation

/// What the cases run against: an in-process handler, a handler command (the adapter contract), a handler URL, a
/// target configuration file (the HTTP profiles), or the reference.
///
/// A target is set up once, on its first case, and kept for the cases after it (the reference starts its server
/// once). A profile the target cannot serve (no token endpoint, no native client) skips its cases with the reason.
public struct ConformanceTarget: Sendable, CustomStringConvertible {
    /// The App Flip link of the partner's app (`https://app.example/flip`) and the client ID Google uses there.
    public struct Link: Sendable, Hashable {
        public var url: String
        public var clientID: String

        public init(_ url: String, clientID: String) {
            self.url = url
            self.clientID = clientID
        }
    }

    enum Kind: Sendable {
        case handler(any AppFlipLinkHandler, Link)
        case request(TargetSpecification)
        case reference(nativeClient: [String]?)
    }

    let kind: Kind
    /// Seconds a handler has for one case.
    public var timeout: Double = 10
    private let state = SetupState()

    init(_ kind: Kind) {
        self.kind = kind
    }

    public var description: String {
        switch kind {
        case .handler(let handler, _): "in-process handler \(type(of: handler))"
        case .request(let request): request.description
        case .reference: "the reference"
        }
    }

    /// An `AppFlipLinkHandler` called in-process; the link and client ID are what it expects.
    public static func handler(_ handler: some AppFlipLinkHandler, link: Link) -> ConformanceTarget {
        ConformanceTarget(.handler(handler, link))
    }

    /// A handler program speaking the adapter contract (JSON Lines on stdin/stdout), started directly, never through
    /// a shell: `arguments[0]` is the program (a path, or a name looked up on `PATH`).
    public static func command(_ arguments: [String], link: Link, persistent: Bool = false) -> ConformanceTarget {
        var request = TargetSpecification(mode: persistent ? .persistent : .oneShot)
        request.handlerCommand = arguments
        request.link = link.url
        request.clientID = link.clientID
        return ConformanceTarget(.request(request))
    }

    /// A link handler served over HTTP (`POST` of the adapter contract's request).
    public static func url(_ url: String, link: Link) -> ConformanceTarget {
        var request = TargetSpecification()
        request.handlerURL = url
        request.link = link.url
        request.clientID = link.clientID
        return ConformanceTarget(.request(request))
    }

    /// A target configuration file (the format `run --config` reads): endpoints, client, sign-in. A handler command
    /// or URL may be added; `link` overrides the file's link and client ID.
    public static func configuration(
        _ path: String, handlerCommand: [String]? = nil, handlerURL: String? = nil,
        link: Link? = nil
    ) -> ConformanceTarget {
        var request = TargetSpecification()
        request.configurationFile = path
        request.handlerCommand = handlerCommand
        request.handlerURL = handlerURL
        request.link = link?.url
        request.clientID = link?.clientID
        return ConformanceTarget(.request(request))
    }

    /// This target with a staging CA trusted for its https endpoints besides the system's store (as `run --ca-file`;
    /// it wins over the configuration file's `ca_file`). The certificate is still verified whole: chain, host name,
    /// dates. For a target without endpoints of its own (an in-process handler, the reference) it changes nothing.
    public func trustingCA(file path: String) -> ConformanceTarget {
        editingRequest { $0.caFile = path }
    }

    /// This target with the variables `names` of the test process's environment passed to every adapter it starts
    /// (as `run --handler-env`): a staging session or a test user's password, never shown (each value is redacted in
    /// every report). An unset or empty variable is a setup error. For an in-process handler it changes nothing.
    public func passingEnvironment(_ names: [String]) -> ConformanceTarget {
        editingRequest { $0.handlerEnvironment += names }
    }

    /// The same target with its flags or file edited by `edit`, its timeout kept; a target of another kind (an
    /// in-process handler, the reference) has none to edit and is returned as it is.
    func editingRequest(_ edit: (inout TargetSpecification) -> Void) -> ConformanceTarget {
        guard case .request(var request) = kind else { return self }
        edit(&request)
        var target = ConformanceTarget(.request(request))
        target.timeout = timeout
        return target
    }

    /// The suite's reference: its link handler in-process and its OAuth server on a loopback port; what every
    /// case passes against. `nativeClient` is a command for the native-client profile (the `appflip-reference
    /// native-client` program); without it those cases are skipped.
    public static func reference(nativeClient: [String]? = nil) -> ConformanceTarget {
        ConformanceTarget(.reference(nativeClient: nativeClient))
    }

    /// The targets and configuration, set up on first use and shared by the cases after.
    func setup() -> Result<RunSetup, SetupError> {
        state.value { () throws(SetupError) -> RunSetup in try makeSetup() }
    }

    /// A setup of its own (for a case that would disturb others sharing the target, such as a burst that sets off
    /// the server's throttling); the caller ends it with `end(_:)`.
    func makeSetup() throws(SetupError) -> RunSetup {
        switch kind {
        case .handler(let handler, let link):
            let targets = TargetUnderTest(adapters: [.linkHandler: AsyncHandlerTarget(handler: handler)])
            let configuration = RunConfiguration(
                link: link.url, clientID: link.clientID, scope: "devices",
                redirectURI: AllowedFlipURIs.default, seed: UInt64.random(in: 1...UInt64(Int64.max)),
                projectID: "", appID: "")
            return RunSetup(targets: targets, configuration: configuration, referenceServer: nil)
        case .request(let request):
            return try RunSetup.partner(request)
        case .reference(let nativeClient):
            let native = try nativeClient?.first.map { (program) throws(SetupError) in
                try RunSetup.nativeClient(program, arguments: Array(nativeClient?.dropFirst() ?? []))
            }
            return try RunSetup.reference(TargetSpecification(), handler: .inProcess, nativeClient: native)
        }
    }

    /// Stops what a setup started: the reference server, handler and native-client processes.
    static func end(_ setup: RunSetup) {
        setup.referenceServer?.stop()
        setup.targets.endProcesses()
    }
}

/// The setup of one target value, made once and shared by every copy of it; the reference server it may hold
/// stops when the last copy goes.
final class SetupState: Sendable {
    private let made = Locked<Result<RunSetup, SetupError>?>(nil)

    func value(_ make: () throws(SetupError) -> RunSetup) -> Result<RunSetup, SetupError> {
        made.withLock { kept in
            if let kept { return kept }
            let result: Result<RunSetup, SetupError>
            do throws(SetupError) {
                result = .success(try make())
            } catch {
                result = .failure(error)
            }
            kept = result
            return result
        }
    }

    deinit {
        if case .success(let setup) = made.withLock({ $0 }) { ConformanceTarget.end(setup) }
    }
}
