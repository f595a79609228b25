import AppFlipDefects
// Deliberately broken App Flip link handlers, each with exactly one defect, to prove the suite catches it.
//
//   broken-handler --defect NAME [--client-id ID] [--code-server URL [--code-server-ca PEM]]
//
// Each defect replaces one stage of the reference handler (or its adapter loop) and nothing else. With --code-server,
// codes are minted at the reference server (as the reference handler's are), so the flip profile redeems them there:
// a defect that makes its own codes keeps them.
import AppFlipReference
import AppFlipReferenceServer
import Foundation

// The names and what each does wrong are the shipped catalog's (AppFlipDefects), which also says what a run must find.
let defects = Dictionary(
    DefectCatalog.all.filter { $0.family == .linkHandler }.map { ($0.name, $0.summary) }, uniquingKeysWith: { first, _ in first })

var arguments = Array(CommandLine.arguments.dropFirst())
var defect = ""
var clientID = ReferenceArguments.defaultClientID
var codeServer: String?
var codeServerCA: String?
while !arguments.isEmpty {
    let name = arguments.removeFirst()
    guard !arguments.isEmpty else { break }
    let value = arguments.removeFirst()
    switch name {
    case "--defect": defect = value
    case "--client-id": clientID = value
    case "--code-server": codeServer = value
    case "--code-server-ca": codeServerCA = value
    default: break
    }
}
guard defects[defect] != nil else {
    let list = DefectCatalog.usageList(.linkHandler)
    try? FileHandle.standardError.write(
        contentsOf: Data("usage: broken-handler --defect NAME [--client-id ID] [--code-server URL [--code-server-ca PEM]]\n\(list)\n".utf8))
    exit(2)
}

var handler = LinkHandler(clientID: clientID)
if let codeServer, let minter = RemoteCodeMinter.minter(url: codeServer, authority: codeServerCA) { handler.mintCode = minter }
let listed = LinkHandler.allowedRedirectURIs
switch defect {
case "lookalike-host":
    handler.acceptsRedirectURI = { uri in
        uri.hasPrefix("https://oauth-redirect.googleusercontent.com") || uri.hasPrefix("https://oauth-redirect-sandbox.googleusercontent.com")
    }
case "prefix-bundle":
    handler.acceptsRedirectURI = { uri in listed.contains { uri.hasPrefix($0) } }
case "any-redirect":
    handler.acceptsRedirectURI = { _ in true }
case "no-client-check":
    handler.acceptsClientID = { _, _ in true }
case "case-insensitive-client-id":
    handler.acceptsClientID = { received, expected in received.lowercased() == expected.lowercased() }
case "trims-client-id":
    handler.acceptsClientID = { received, expected in received.trimmingCharacters(in: .whitespacesAndNewlines) == expected }
case "raw-state", "raw-state-chatty":
    handler.encodeValue = { String(decoding: $0, as: UTF8.self) }
case "reencodes-state":
    handler.encodeValue = { QueryCodec.encode(Array(QueryCodec.encode($0).utf8)) }
case "user-not-authorized":
    let original = handler.errorCode
    handler.errorCode = { $0 == .deny ? "user_not_authorized" : original($0) }
case "cancel-as-denied":
    let original = handler.errorCode
    handler.errorCode = { $0 == .cancel ? "access_denied" : original($0) }
case "disabled-as-cancelled":
    let original = handler.errorCode
    handler.errorCode = { $0 == .disabledAccount ? "cancelled" : original($0) }
case "misses-one-listed":
    // Its list has eleven of the twelve flip URIs: the production Google Home enterprise one is missing.
    handler.acceptsRedirectURI = { uri in
        listed.contains(uri) && uri != "https://oauth-redirect.googleusercontent.com/a/com.google.Chromecast.enterprise"
    }
case "deny-as-cancelled":
    let original = handler.errorCode
    handler.errorCode = { $0 == .deny ? "cancelled" : original($0) }
case "first-of-repeated":
    handler.rejectsRepeatedParameters = false
case "empty-code":
    handler.mintCode = { _, _ in "" }
case "fixed-code":
    handler.mintCode = { _, _ in "fixed-test-code-0001" }
case "no-universal-links":
    handler.universalLinksOnly = false
case "components-style":
    handler.readsPlusAsSpace = false
case "legitimate-variant":
    handler.stateFirst = true
    handler.includesErrorDescription = false
    handler.grantsDefaultScope = false
    handler.encodeValue = { bytes in
        // Form encoding with '+' for a space, lower-case hex digits, and '*' left as is (as some encoders do).
        var text = ""
        for byte in bytes {
            switch byte {
            case 0x20: text += "+"
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2D, 0x2E, 0x5F, 0x2A: text.unicodeScalars.append(Unicode.Scalar(byte))
            default: text += (byte < 0x10 ? "%0" : "%") + String(byte, radix: 16, uppercase: false)
            }
        }
        return text
    }
default:
    break
}

while let line = readLine(strippingNewline: true) {
    switch defect {
    case "hang":
        Thread.sleep(forTimeInterval: 3600)
    case "garbage":
        try? FileHandle.standardOutput.write(contentsOf: Data("this is not JSON <html>\n".utf8))
        continue
    case "crash-long-state":
        if let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
            let link = object["link"] as? String,
            let state = QueryCodec.pairs(QueryCodec.query(of: link)).first(where: { $0.name == Array("state".utf8) })?.value,
            state.count > 4096
        {
            try? FileHandle.standardError.write(contentsOf: Data("broken-handler: state too long, aborting\n".utf8))
            abort()
        }
    case "silent-bad-client":
        if let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
            let id = object["id"] as? String, let link = object["link"] as? String,
            let received = QueryCodec.pairs(QueryCodec.query(of: link)).first(where: { $0.name == Array("client_id".utf8) })?.value,
            received != Array(clientID.utf8)
        {
            if let decline = try? JSONSerialization.data(withJSONObject: ["id": id, "action": "decline"]) {
                try? FileHandle.standardOutput.write(contentsOf: decline + Data("\n".utf8))
            }
            continue
        }
    case "trims-state", "encoded-links-only":
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], let id = object["id"] as? String,
            let link = object["link"] as? String, let scenario = object["scenario"] as? String
        else { break }
        let query = QueryCodec.query(of: link)
        if defect == "encoded-links-only", query.split(separator: "&").contains(where: { $0.hasPrefix("redirect_uri=") && $0.contains(":") }) {
            if let decline = try? JSONSerialization.data(withJSONObject: ["id": id, "action": "decline"]) {
                try? FileHandle.standardOutput.write(contentsOf: decline + Data("\n".utf8))
            }
            continue
        }
        if defect == "trims-state" {
            // Rebuilds the link with the state trimmed, then answers as the reference would.
            let pieces = query.split(separator: "&", omittingEmptySubsequences: false).map { piece -> String in
                guard piece.hasPrefix("state="), let value = QueryCodec.decode(piece.dropFirst(6)) else { return String(piece) }
                let trimmed = String(decoding: value, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                return "state=" + QueryCodec.encode(Array(trimmed.utf8))
            }
            let base = link.split(separator: "?", maxSplits: 1).first.map(String.init) ?? link
            let rebuilt = base + "?" + pieces.joined(separator: "&")
            if let data = try? JSONSerialization.data(withJSONObject: ["id": id, "link": rebuilt, "scenario": scenario]),
                let answer = AdapterLoop.answer(to: String(decoding: data, as: UTF8.self), handler)
            {
                try? FileHandle.standardOutput.write(contentsOf: answer + Data("\n".utf8))
            }
            continue
        }
    case "drops-state":
        // Answers as the reference would, then removes the state from the URL it opens.
        guard let answer = AdapterLoop.answer(to: line, handler),
            var reply = try? JSONSerialization.jsonObject(with: answer) as? [String: Any]
        else { break }
        if let url = reply["url"] as? String, let mark = url.firstIndex(of: "?") {
            let kept = url[url.index(after: mark)...].split(separator: "&").filter { !$0.hasPrefix("state=") }
            reply["url"] = String(url[..<mark]) + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&"))
        }
        if let data = try? JSONSerialization.data(withJSONObject: reply, options: [.sortedKeys]) {
            try? FileHandle.standardOutput.write(contentsOf: data + Data("\n".utf8))
        }
        continue
    case "short-code":
        if let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], let link = object["link"] as? String {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in link.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            let minted = String(hash, radix: 16)
            handler.mintCode = { _, _ in minted }
        }
    case "link-derived-code":
        // A different code for every link, the same one for the same link: FNV-1a over the link's bytes.
        if let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], let link = object["link"] as? String {
            var code = "code-"
            for round in 0..<4 {
                var hash: UInt64 = 0xcbf2_9ce4_8422_2325 &+ UInt64(round)
                for byte in link.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
                code += String(repeating: "0", count: 16 - String(hash, radix: 16).count) + String(hash, radix: 16)
            }
            let minted = code
            handler.mintCode = { _, _ in minted }
        }
    default:
        break
    }
    if var answer = AdapterLoop.answer(to: line, handler) {
        if defect == "result-in-fragment", var object = try? JSONSerialization.jsonObject(with: answer) as? [String: Any],
            let url = object["url"] as? String, let mark = url.firstIndex(of: "?")
        {
            object["url"] = url.replacingCharacters(in: mark...mark, with: "#")
            answer = (try? JSONSerialization.data(withJSONObject: object)) ?? answer
        }
        if defect == "fixed-flip-uri", var object = try? JSONSerialization.jsonObject(with: answer) as? [String: Any],
            let url = object["url"] as? String, let mark = url.firstIndex(of: "?"), listed.contains(String(url[..<mark]))
        {
            // Opens the Google Assistant's production flip URI whichever listed one the link named.
            object["url"] = "https://oauth-redirect.googleusercontent.com/a/com.google.OPA" + url[mark...]
            answer = (try? JSONSerialization.data(withJSONObject: object)) ?? answer
        }
        if defect == "token-in-fragment", var object = try? JSONSerialization.jsonObject(with: answer) as? [String: Any],
            let url = object["url"] as? String, url.contains("code=")
        {
            object["url"] = url + "#access_token=at-" + String(UInt64.random(in: 1...UInt64.max), radix: 16) + "&token_type=Bearer"
            answer = (try? JSONSerialization.data(withJSONObject: object)) ?? answer
        }
        try? FileHandle.standardOutput.write(contentsOf: answer + Data("\n".utf8))
        if defect == "raw-state-chatty" { try? FileHandle.standardOutput.write(contentsOf: Data("handled one link\n".utf8)) }
        if defect == "floods-late" { Thread.sleep(forTimeInterval: 0.3) }
        if defect == "floods-after-answer" || defect == "floods-late" {
            signal(SIGPIPE, SIG_IGN)
            let chunk = [UInt8](repeating: 0x78, count: 65_535) + [0x0A]
            while chunk.withUnsafeBytes({ write(1, $0.baseAddress, $0.count) }) > 0 {}
            exit(0)
        }
    }
}
