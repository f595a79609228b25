import AppFlipBase

extension LinkRecipe {
    /// Makes the exact link to send: the valid base link with the recipe's edits, or the raw text.
    package func build(in context: Template.Context) -> String {
        if let raw { return raw.resolve(in: context, encodingValues: true) }
        // Written into one buffer, then made a string once (every case builds its link): no string a pair.
        var link = ByteBuffer(capacity: 256)
        link.append(utf8: context.configuration.link)
        link.append(UInt8(ascii: "?"))
        appendQuery(in: context, to: &link)
        if let fragment {
            link.append(UInt8(ascii: "#"))
            link.append(utf8: fragment.resolve(in: context, encodingValues: true))
        }
        return link.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// The base pairs, values already form-encoded.
    func basePairs(in context: Template.Context) -> [(name: String, value: String)] {
        let configuration = context.configuration
        let pairs: [(String, String)]
        switch base {
        case .appLink:
            pairs = [
                ("client_id", configuration.clientID), ("scope", configuration.scope), ("state", context.generated.state),
                ("redirect_uri", configuration.redirectURI),
            ]
        case .authorize:
            pairs = [
                ("response_type", "code"), ("client_id", configuration.clientID), ("redirect_uri", configuration.webRedirectURI),
                ("scope", configuration.scope), ("state", context.generated.state),
            ]
        case .code:
            pairs = [
                ("grant_type", "authorization_code"), ("code", context.captured["code"] ?? ""),
                ("redirect_uri", configuration.webRedirectURI),
            ]
        case .refresh:
            pairs = [("grant_type", "refresh_token"), ("refresh_token", context.captured["refresh_token"] ?? "")]
        case .revoke:
            pairs = [("token", context.captured["access_token"] ?? "")]
        case .none:
            pairs = []
        }
        return pairs.map { ($0.0, FormEncoding.encode($0.1)) }
    }

    /// The query (or form body) alone: the base parameters with the edits, or the exact `query` text.
    package func buildQuery(in context: Template.Context) -> String {
        var query = ByteBuffer(capacity: 256)
        appendQuery(in: context, to: &query)
        return query.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// `buildQuery`, appended to `output`.
    private func appendQuery(in context: Template.Context, to output: inout ByteBuffer) {
        if let exact = self.query {
            output.append(utf8: exact.resolve(in: context, encodingValues: true))
        } else {
            var pairs = basePairs(in: context)
            pairs.removeAll { remove.contains($0.name) }
            for parameter in set {
                let value = encodedValue(parameter, context)
                if let index = pairs.firstIndex(where: { $0.name == parameter.name }) {
                    pairs[index].value = value
                } else {
                    pairs.append((parameter.name, value))
                }
            }
            for parameter in append {
                pairs.append((parameter.name, encodedValue(parameter, context)))
            }
            if !order.isEmpty {
                let listed = order.flatMap { name in pairs.filter { $0.name == name } }
                pairs = listed + pairs.filter { !order.contains($0.name) }
            }
            for (index, pair) in pairs.enumerated() {
                if index > 0 { output.append(UInt8(ascii: "&")) }
                // A name is written as given when it is already URI-safe, so probes can use odd names.
                if pair.name.utf8.allSatisfy({ FormEncoding.isUnreserved($0) }) {
                    output.append(utf8: pair.name)
                } else {
                    FormEncoding.append(encoding: pair.name, to: &output)
                }
                output.append(UInt8(ascii: "="))
                output.append(utf8: pair.value)
            }
        }
    }

    private func encodedValue(_ parameter: Parameter, _ context: Template.Context) -> String {
        parameter.isRaw ? parameter.value.resolve(in: context, encodingValues: true) : FormEncoding.encode(parameter.value.resolve(in: context))
    }
}
