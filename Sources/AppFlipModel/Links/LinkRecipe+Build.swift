extension LinkRecipe {
    /// Makes the exact link to send: the valid base link with the recipe's edits, or the raw text.
    public func build(in context: Template.Context) -> String {
        if let raw { return raw.resolve(in: context, encodingValues: true) }
        let configuration = context.configuration
        var query: String
        if let exact = self.query {
            query = exact.resolve(in: context, encodingValues: true)
        } else {
            var pairs: [(name: String, value: String)] = [
                ("client_id", FormEncoding.encode(configuration.clientID)),
                ("scope", FormEncoding.encode(configuration.scope)),
                ("state", FormEncoding.encode(context.generated.state)),
                ("redirect_uri", FormEncoding.encode(configuration.redirectURI)),
            ]
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
            query = pairs.map { pair in
                // A name is written as given when it is already URI-safe, so probes can use odd names.
                let name = pair.name.utf8.allSatisfy { FormEncoding.isUnreserved($0) } ? pair.name : FormEncoding.encode(pair.name)
                return name + "=" + pair.value
            }.joined(separator: "&")
        }
        var link = configuration.link + "?" + query
        if let fragment { link += "#" + fragment.resolve(in: context, encodingValues: true) }
        return link
    }

    private func encodedValue(_ parameter: Parameter, _ context: Template.Context) -> String {
        parameter.isRaw ? parameter.value.resolve(in: context, encodingValues: true) : FormEncoding.encode(parameter.value.resolve(in: context))
    }
}
