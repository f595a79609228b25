/// Credentials an HTTP header carries by its name, hidden whatever their value: the credentials of `Authorization`
/// and `Proxy-Authorization` (any scheme; the scheme stays), every cookie value of `Cookie` and the value of
/// `Set-Cookie` (names and attributes stay: a session cookie signs a user in), and the whole value of a header named
/// like a credential (`X-Api-Key`, `X-Auth-Token`, `Client-Secret`: with `-` read as `_`, a sensitive parameter
/// name, or one ending in `_token`, `_key` or `_secret`). Known values are hidden by `Redactor` besides.
package enum HeaderCredentials {
    package static func hide(name: String, value: String) -> String {
        // Every header of every exchange passes here: the name folded byte-wise (ASCII lower case, `-` as `_`).
        let parameter = String(decoding: name.utf8.map { byte in
            byte == UInt8(ascii: "-") ? UInt8(ascii: "_") : (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
        }, as: UTF8.self)
        switch parameter {
        case "authorization", "proxy_authorization":
            let trimmed = value.drop { $0 == " " || $0 == "\t" }
            guard let space = trimmed.firstIndex(where: { $0 == " " || $0 == "\t" }) else {
                return trimmed.isEmpty ? value : Redaction.placeholder(for: Array(trimmed.utf8))
            }
            let credentials = trimmed[space...].drop { $0 == " " || $0 == "\t" }
            guard !credentials.isEmpty else { return value }
            return String(trimmed[..<space]) + " " + Redaction.placeholder(for: Array(credentials.utf8))
        case "cookie":
            return value.split(separator: ";", omittingEmptySubsequences: false).map { pair in
                hideCookieValue(pair)
            }.joined(separator: ";")
        case "set_cookie":
            guard let semicolon = value.firstIndex(of: ";") else { return hideCookieValue(Substring(value)) }
            return hideCookieValue(value[..<semicolon]) + value[semicolon...]
        default:
            let named = Redaction.sensitiveParameters.contains(parameter) || parameter.hasSuffix("_token") || parameter.hasSuffix("_key")
                || parameter.hasSuffix("_secret") || parameter.hasSuffix("_password")
            guard named, !value.isEmpty, !Redaction.isPlaceholder(Substring(value)) else { return value }
            return Redaction.placeholder(for: Array(value.utf8))
        }
    }

    /// `name=value` with the value hidden (an empty value stays empty: nothing to hide).
    private static func hideCookieValue(_ pair: Substring) -> String {
        guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
        let cookie = pair[pair.index(after: equals)...]
        guard !cookie.isEmpty, !Redaction.isPlaceholder(cookie) else { return String(pair) }
        return pair[...equals] + Redaction.placeholder(for: Array(cookie.utf8))
    }
}
