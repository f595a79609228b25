import AppFlipModel
import AppFlipSyntax

/// A native-client step's syntax: the command and what the test authorization server answers in the step.
extension CaseLoader {
    /// `sign_in: default`, or a mapping of what the test authorization server answers in this step:
    /// `authorization` (`code`, `wrong-state`, `missing-state`, `error:NAME`), `token` and `refresh` (`bearer`,
    /// `unknown-members`, `token-type:NAME`, `invalid-grant`, `redirect`), `rotate_refresh` (`yes`/`no`),
    /// `metadata` (`standard`, `plain-only`), `token_delay` (seconds, up to 30), `token_certificate` (`trusted`,
    /// `other-ca`, `expired`, `wrong-host`: the token and revocation endpoints over https with that certificate).
    mutating func nativeStep(_ command: NativeStep.Command, _ node: Node) -> NativeStep? {
        var script = NativeServerScript()
        if case .scalar(let scalar) = node {
            guard scalar.text == "default" else {
                reader.error(at: scalar.location, "'\(command.rawValue)' takes 'default' or a mapping of the server's answers")
                return nil
            }
            return NativeStep(command: command, server: script)
        }
        guard let mapping = reader.mapping(node, "'\(command.rawValue)'"),
            reader.checkKeys(
                mapping,
                allowed: [
                    "authorization", "token", "refresh", "rotate_refresh", "metadata", "token_delay",
                    "token_certificate",
                ], in: "'\(command.rawValue)'")
        else { return nil }
        let before = reader.diagnostics.count
        if let node = mapping["authorization"], let scalar = reader.scalar(node, "'authorization'") {
            switch scalar.text {
            case "code": script.authorization = .code
            case "wrong-state": script.authorization = .wrongState
            case "missing-state": script.authorization = .missingState
            case "wrong-issuer": script.authorization = .wrongIssuer
            case let text where text.hasPrefix("error:") && text.count > 6: script.authorization = .error(String(text.dropFirst(6)))
            default: reader.error(at: scalar.location, "'authorization' takes code, wrong-state, missing-state, wrong-issuer or error:NAME")
            }
        }
        for key in ["token", "refresh"] {
            guard let node = mapping[key], let scalar = reader.scalar(node, "'\(key)'") else { continue }
            let answer: NativeServerScript.TokenAnswer
            switch scalar.text {
            case "bearer": answer = .bearer
            case "unknown-members": answer = .unknownMembers
            case "invalid-grant": answer = .invalidGrant
            case "redirect": answer = .redirect
            case let text where text.hasPrefix("token-type:") && text.count > 11: answer = .tokenType(String(text.dropFirst(11)))
            default:
                reader.error(at: scalar.location, "'\(key)' takes bearer, unknown-members, token-type:NAME, invalid-grant or redirect")
                continue
            }
            if key == "token" { script.token = answer } else { script.refresh = answer }
        }
        if let node = mapping["rotate_refresh"], let scalar = reader.scalar(node, "'rotate_refresh'") {
            switch scalar.text {
            case "yes", "true": script.rotateRefreshTokens = true
            case "no", "false": script.rotateRefreshTokens = false
            default: reader.error(at: scalar.location, "'rotate_refresh' takes yes or no")
            }
        }
        if let node = mapping["metadata"], let metadata = reader.enumValue(node, "'metadata'", as: NativeServerScript.Metadata.self) {
            script.metadata = metadata
        }
        if let node = mapping["token_certificate"],
            let certificate = reader.enumValue(node, "'token_certificate'", as: NativeServerScript.TokenCertificate.self)
        {
            script.tokenCertificate = certificate
        }
        if let node = mapping["token_delay"], let scalar = reader.scalar(node, "'token_delay'") {
            if let seconds = Double(scalar.text), seconds > 0, seconds <= 30 {
                script.tokenDelay = seconds
            } else {
                reader.error(at: scalar.location, "'token_delay' takes seconds, more than 0 and up to 30")
            }
        }
        return reader.diagnostics.count == before ? NativeStep(command: command, server: script) : nil
    }
}
