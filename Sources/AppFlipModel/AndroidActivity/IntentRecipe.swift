/// How a case builds the intent it starts the partner's activity with: Google's intent (`CLIENT_ID`, `SCOPE` as a
/// String[] of the configured scope, `REDIRECT_URI`, from the configured caller), with extras replaced, added or
/// removed and the caller changed.
package struct IntentRecipe: Sendable, Hashable {
    /// A typed extra whose text is a template.
    package enum Extra: Sendable, Hashable {
        case string(Template)
        case stringArray([Template])
        case int(Int)
    }

    /// Who starts the activity.
    package enum Caller: Sendable, Hashable {
        /// The configured caller (Google's app by default).
        case configured
        /// Nobody `getCallingActivity()` can name: the activity was not started for a result.
        case none
        case other(package: Template, signature: Template)
    }

    /// Extras replaced where Google sends them, or added after them, in this order.
    package var set: [Entry] = []
    /// Extras Google sends that this intent leaves out.
    package var remove: [String] = []
    package var caller: Caller = .configured
    /// What the user does in this start, when not the case's scenario (`scenario:` in the block): a scenario case
    /// first starts the activity as a consenting user, so a refusal of every request is not taken for its answer.
    package var scenario: Scenario?

    package struct Entry: Sendable, Hashable {
        package var name: String
        package var value: Extra

        package init(name: String, value: Extra) {
            self.name = name
            self.value = value
        }
    }

    package init(set: [Entry] = [], remove: [String] = [], caller: Caller = .configured) {
        self.set = set
        self.remove = remove
        self.caller = caller
    }

    /// The extras Google sends, by name.
    package static let googleExtras = ["CLIENT_ID", "SCOPE", "REDIRECT_URI"]

    package func build(in context: Template.Context) -> AndroidIntent {
        let settings = context.configuration.android
        var extras = [
            NamedExtra("CLIENT_ID", .string(context.configuration.clientID)),
            NamedExtra("SCOPE", .stringArray(context.configuration.scope.split(separator: " ").map(String.init))),
            NamedExtra("REDIRECT_URI", .string(settings.redirectURI)),
        ]
        extras.removeAll { remove.contains($0.name) }
        for entry in set {
            let value: IntentExtra =
                switch entry.value {
                case .string(let template): .string(template.resolve(in: context))
                case .stringArray(let templates): .stringArray(templates.map { $0.resolve(in: context) })
                case .int(let number): .int(number)
                }
            if let index = extras.firstIndex(where: { $0.name == entry.name }) {
                extras[index].value = value
            } else {
                extras.append(NamedExtra(entry.name, value))
            }
        }
        let caller: AndroidCaller? =
            switch self.caller {
            case .configured: settings.caller
            case .none: nil
            case .other(let package, let signature):
                AndroidCaller(package: package.resolve(in: context), signatureSHA256: signature.resolve(in: context))
            }
        return AndroidIntent(action: settings.action, package: settings.package, extras: extras, caller: caller)
    }
}
