// Deliberately broken Android App Flip activities, each with exactly one defect, to prove the suite catches it.
//
//   broken-android-handler --defect NAME [--client-id ID] [--code-server URL] [--code-prefix TEXT]
//
// Each defect replaces one stage of the reference activity (or what its adapter writes) and nothing else.
import AppFlipBase
import AppFlipDefects
import AppFlipReference
import AppFlipReferenceServer
import Foundation

// The names and what each does wrong are the shipped catalog's (AppFlipDefects), which also says what a run must find.
let defects = Dictionary(
    DefectCatalog.all.filter { $0.family == .androidHandler }.map { ($0.name, $0.summary) }, uniquingKeysWith: { first, _ in first })

var arguments = Array(CommandLine.arguments.dropFirst())
var defect = ""
var clientID = ReferenceArguments.defaultClientID
var codeServer: String?
var codePrefix = ""
var codeServerCA: String?
while !arguments.isEmpty {
    let name = arguments.removeFirst()
    guard !arguments.isEmpty else { break }
    let value = arguments.removeFirst()
    switch name {
    case "--defect": defect = value
    case "--client-id": clientID = value
    case "--code-server": codeServer = value
    case "--code-prefix": codePrefix = value
    case "--code-server-ca": codeServerCA = value
    default: break
    }
}
guard defects[defect] != nil else {
    let list = DefectCatalog.usageList(.androidHandler)
    try? FileHandle.standardError.write(
        contentsOf: Data("usage: broken-android-handler --defect NAME [--client-id ID] [--code-server URL]\n\(list)\n".utf8))
    exit(2)
}

var activity = AndroidActivity(clientID: clientID, mintCode: { _, _ in CodeMinter.mint() })
if let codeServer, let minter = RemoteCodeMinter.minter(url: codeServer, authority: codeServerCA) { activity.mintCode = minter }
if !codePrefix.isEmpty {
    // Codes a test can look for in the reports: the prefix, then the minted code.
    let mint = activity.mintCode
    activity.mintCode = { [codePrefix] redirectURI, scope in codePrefix + mint(redirectURI, scope) }
}
let reference = activity
typealias Result = AndroidActivity.Result

/// The reference's result for a request, then one change to it.
func handle(
    _ extras: [String: AndroidActivity.Extra], _ caller: AndroidActivity.Caller?, _ scenario: AndroidActivity.Scenario,
    activity: AndroidActivity, defect: String
) -> Result {
    var result = activity.handle(extras: extras, caller: caller, scenario: scenario)
    switch defect {
    case "no-data-on-ok" where result.code == AndroidActivity.resultOK:
        result.extras = nil
    case "no-data-on-error" where result.code == AndroidActivity.resultError:
        result.extras = nil
    case "string-error-type", "string-error-code":
        let name = defect == "string-error-type" ? "ERROR_TYPE" : "ERROR_CODE"
        result.extras = result.extras?.map { key, value in
            if key == name, case .int(let number) = value { return (key, .string(String(number))) }
            return (key, value)
        }
    case "error-extras-on-ok" where result.code == AndroidActivity.resultOK:
        result.extras?.append(("ERROR_TYPE", .int(AndroidActivity.recoverable)))
        result.extras?.append(("ERROR_CODE", .int(0)))
    case "never-finishes":
        result.finished = false
    case "odd-result-on-string-scope":
        if let scope = extras["SCOPE"], case .strings = scope {
        } else if extras["SCOPE"] != nil {
            result = Result(code: 1, extras: nil)
        }
    case "refuses-scope-array":
        if case .strings? = extras["SCOPE"] {
            result = AndroidActivity.error(type: AndroidActivity.invalidRequest, code: 2, description: "no scope")
        }
    case "refuses-unknown-extra":
        if extras.keys.contains(where: { !["CLIENT_ID", "SCOPE", "REDIRECT_URI"].contains($0) }) {
            result = AndroidActivity.error(type: AndroidActivity.invalidRequest, code: 1, description: "unknown extra")
        }
    default:
        break
    }
    return result
}

switch defect {
case "silent-bad-caller":
    activity.verificationFailure = { what in
        what.contains("calling app")
            ? Result(code: AndroidActivity.resultCanceled, extras: nil, finished: false)
            : AndroidActivity.error(type: AndroidActivity.invalidRequest, code: 8, description: what)
    }
case "no-caller-check":
    activity.acceptsCaller = { _, _ in true }
case "package-only-caller-check":
    activity.acceptsCaller = { caller, allowed in
        guard let caller else { return false }
        return allowed.contains { $0.package == caller.package }
    }
case "no-client-check":
    activity.checksClientValue = false
case "case-insensitive-client-id":
    activity.acceptsClientID = { $0.lowercased() == $1.lowercased() }
case "empty-code":
    activity.mintCode = { _, _ in "" }
case "error-type-out-of-range":
    activity.verificationFailure = { what in AndroidActivity.error(type: 4, code: 8, description: what) }
case "deny-recoverable", "cancel-unrecoverable", "disabled-recoverable":
    let base = reference.refusal
    activity.refusal = { [defect] scenario in
        switch (defect, scenario) {
        case ("deny-recoverable", .deny):
            AndroidActivity.error(type: AndroidActivity.recoverable, code: AndroidActivity.userDeniedConsent, description: "declined")
        case ("cancel-unrecoverable", .cancel): AndroidActivity.error(type: AndroidActivity.unrecoverable, code: 5, description: "cancelled")
        case ("disabled-recoverable", .disabledAccount): AndroidActivity.error(type: AndroidActivity.recoverable, code: 5, description: "disabled")
        default: base(scenario)
        }
    }
case "unredeemable-code":
    activity.mintCode = { _, _ in CodeMinter.mint() }
case "repeats-code":
    let first = FirstCode()
    let mint = reference.mintCode
    activity.mintCode = { redirectURI, scope in first.value { mint(redirectURI, scope) } }
case "digest-prefix":
    activity.acceptsCaller = { caller, allowed in
        guard let caller else { return false }
        return allowed.contains {
            $0.package == caller.package && ($0.signature.hasPrefix(caller.signature) || caller.signature.hasPrefix($0.signature))
        }
    }
case "google-app-only":
    activity.allowedCallers = AndroidActivity.googleCallers.filter { $0.package == "com.google.android.googlequicksearchbox" }
case "normalised-digest":
    activity.acceptsCaller = { caller, allowed in
        guard let caller else { return false }
        let digits = { (digest: String) in digest.filter { $0 != ":" }.lowercased() }
        return allowed.contains { $0.package == caller.package && digits($0.signature) == digits(caller.signature) }
    }
case "legitimate-variant":
    activity.acceptsCaller = { caller, allowed in
        guard let caller else { return false }
        return allowed.contains { $0.package == caller.package && $0.signature.lowercased() == caller.signature.lowercased() }
    }
    activity.verificationFailure = { what in
        what.contains("calling app")
            ? Result(code: AndroidActivity.resultCanceled, extras: nil)
            : Result(code: AndroidActivity.resultError, extras: [("ERROR_CODE", .int(9)), ("ERROR_TYPE", .int(AndroidActivity.recoverable))])
    }
    activity.refusal = { scenario in
        switch scenario {
        case .deny: Result(code: AndroidActivity.resultError, extras: [("ERROR_CODE", .int(13)), ("ERROR_TYPE", .int(2))])
        case .cancel: Result(code: AndroidActivity.resultError, extras: [("ERROR_TYPE", .int(1)), ("ERROR_CODE", .int(14))])
        case .disabledAccount: Result(code: AndroidActivity.resultError, extras: [("ERROR_TYPE", .int(2)), ("ERROR_CODE", .int(16))])
        case .consent: Result(code: AndroidActivity.resultError, extras: [("ERROR_TYPE", .int(1)), ("ERROR_CODE", .int(5))])
        }
    }
default:
    break
}

/// The answer rewritten so the contract cannot use it, the live code still in it: form `turn` of six (`form(of:)`).
func unusable(_ answer: Data, turn: Int) -> Data {
    guard var reply = (try? JSONSerialization.jsonObject(with: answer)) as? [String: Any],
        var data = reply["data"] as? [String: Any], var extras = data["extras"] as? [String: Any],
        let code = (extras["AUTHORIZATION_CODE"] as? [String: Any])?["value"] as? String
    else { return answer }
    var text = Array(answer)
    switch turn % 6 {
    case 0: reply["finished"] = nil
    case 1: reply["result_code"] = "-1"
    case 2, 3:
        extras["AUTHORIZATION_CODE"] = turn % 6 == 2 ? ["type": "CharSequence", "value": code] : ["type": "String[]", "value": [code]]
        data["extras"] = extras
        reply["data"] = data
    case 4: return Data(text.dropLast() + Array(#","finished":true}"#.utf8))
    default: return Data(text.dropLast(2))
    }
    text = (try? JSONSerialization.data(withJSONObject: reply, options: [.sortedKeys])).map(Array.init) ?? text
    return Data(text)
}

/// Which of the six unusable forms a request gets: from what the request asks (its extras, caller and scenario), never
/// from its seeded id or from the order a worker's requests arrive in, so every run answers each case alike.
func form(of request: AdapterLoop.IntentRequest) -> Int {
    let text =
        request.extras.keys.sorted().map { "\($0)=\(String(describing: request.extras[$0]))" }.joined(separator: ";")
        + "|\(request.caller.map { $0.package + "/" + $0.signature } ?? "")|\(request.scenario)"
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return Int(hash % 6)
}

while let line = readLine(strippingNewline: true) {
    guard !line.isEmpty else { continue }
    if defect == "crash-on-huge-extra", line.utf8.count > 65_536 + 200 {
        exit(3)
    }
    guard let request = AdapterLoop.intentRequest(from: line) else { continue }
    if defect == "crash-on-string-scope", let scope = request.extras["SCOPE"] {
        if case .strings = scope {} else { exit(4) }
    }
    let result = handle(request.extras, request.caller, request.scenario, activity: activity, defect: defect)
    guard var answer = AdapterLoop.answer(id: request.id, result) else { continue }
    if defect == "unusable-answers" {
        answer = unusable(answer, turn: form(of: request))
    }
    FileHandle.standardOutput.write(answer + Data("\n".utf8))
    if defect == "floods-after-answer" {
        let block = Data(repeating: UInt8(ascii: "x"), count: 64 * 1024)
        for _ in 0..<48 { FileHandle.standardOutput.write(block) }
    }
}

/// The first code minted, kept for every later request.
final class FirstCode: @unchecked Sendable {
    private let code = Locked<String?>(nil)

    func value(_ mint: () -> String) -> String {
        code.withLock { code in
            if let code { return code }
            let minted = mint()
            code = minted
            return minted
        }
    }
}
