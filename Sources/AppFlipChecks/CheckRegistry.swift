import AppFlipModel
import AppFlipSyntax

/// Every check kind, in the order FORMAT.md lists them. The loader reads `expect` keys through it, the judge
/// judges through it, and a test renders its documentation and compares it with FORMAT.md.
package enum CheckRegistry {
    package static let kinds: [any CheckKind.Type] = [
        ActionCheck.self,
        URLBaseCheck.self,
        CodeCheck.self,
        StateCheck.self,
        ErrorCheck.self,
        ErrorIfPresentCheck.self,
        ErrorDescriptionCheck.self,
        StrictParametersCheck.self,
        CredentialsCheck.self,
        FragmentCheck.self,
        UniversalLinksOnlyCheck.self,
        ParameterCheck.self,
        StatusCheck.self,
        HeaderCheck.self,
        JSONMemberCheck.self,
        NavigationCheck.self,
        BodyExcludesCheck.self,
        FramingCheck.self,
        SiteAssociationCheck.self,
        BodyAtMostCheck.self,
        PlainHTTPCheck.self,
        LegacyTLSCheck.self,
        CertificateCheck.self,
        ForwardSecrecyCheck.self,
        HSTSCheck.self,
        ThrottledCheck.self,
        PerUserCheck.self,
        SignInPagesCheck.self,
        DistinctCheck.self,
        EntropyCheck.self,
        AppAnswerCheck.self,
        AuditCheck.self,
        UserAgentCheck.self,
        VerifierCheck.self,
        PKCEMatchCheck.self,
        TokenRequestCheck.self,
        RedirectRepeatedCheck.self,
        ForgedResponseCheck.self,
        ServerCertificateCheck.self,
        LoopbackListenerCheck.self,
        RefreshTokenCheck.self,
        RevocationCheck.self,
        ResultCodeCheck.self,
        OKResultCheck.self,
        ErrorResultCheck.self,
        AuthorizationCodeCheck.self,
        CallerCodeCheck.self,
        ErrorTypeCheck.self,
        ErrorCodeCheck.self,
        SingleOutcomeCheck.self,
        FinishedCheck.self,
        SurvivesCheck.self,
    ]

    private static let byKey: [String: any CheckKind.Type] = Dictionary(uniqueKeysWithValues: kinds.map { ($0.key, $0) })

    package static var keys: [String] { kinds.map { $0.key } }

    /// The keys of the checks FORMAT.md lists in `section` (a contract's step table), in registry order.
    package static func keys(in section: CheckDocumentation.Section) -> [String] {
        kinds.filter { $0.documentation.section == section }.map { $0.key }
    }

    /// FORMAT.md's list of the checks on an opened URL's content ("Checks on the opened URL's content (…)"), from
    /// what each kind says of itself.
    package static var openedURLForms: String { kinds.compactMap { $0.openedURLForm }.joined(separator: ", ") }

    package static func kind(for key: String) -> (any CheckKind.Type)? { byKey[key] }

    /// The Markdown table of one documentation section, exactly as FORMAT.md must contain it.
    package static func documentationTable(_ section: CheckDocumentation.Section) -> String {
        var text = "| Key | Values | Holds when |\n| --- | --- | --- |\n"
        for kind in kinds where kind.documentation.section == section {
            text += "| `\(kind.key)` | \(kind.documentation.values) | \(kind.documentation.holdsWhen) |\n"
        }
        return text
    }

    /// The check groups the suite adds to a step by itself, besides `groups` (the step's own), at `location`: for a
    /// native sign-in, the URL audit's parts every authorization request shows (`AuditCheck.everySignIn`), each the
    /// step does not judge itself, as setup (they judge every request, and are not what the case tests). `level` gives a
    /// requirement's level from the catalog.
    package static func impliedGroups(
        for action: Step.Action, besides groups: [CheckGroup], level: (String) -> Level?, at location: SourceLocationValue
    ) -> [CheckGroup] {
        guard case .native(let native) = action, native.command == .signIn else { return [] }
        let judged = Set(groups.map(\.requirement.id))
        return AuditCheck.everySignIn.filter { !judged.contains($0) }.map { id in
            CheckGroup(
                requirement: RequirementReference(id: id, level: level(id) ?? .must), expectation: .all([AuditCheck.judging(id)]),
                location: location, isSetup: true)
        }
    }

    /// Reads a check group's `when_status` condition: a status check, the statuses on which the group is judged; nil
    /// after a diagnostic.
    package static func readStatusCondition(_ node: Node, reader: inout NodeReader) -> AnyCheck? {
        readChecks(StatusCheck.self, node, &reader)?.first
    }

    /// Reads one `expect` entry through its kind; nil after a diagnostic.
    package static func read(key: String, _ node: Node, reader: inout NodeReader) -> [AnyCheck]? {
        guard let kind = byKey[key] else { return nil }
        return readChecks(kind, node, &reader)
    }

    private static func readChecks<Kind: CheckKind>(_ kind: Kind.Type, _ node: Node, _ reader: inout NodeReader) -> [AnyCheck]? {
        let before = reader.diagnostics.count
        guard let checks = kind.read(node, reader: &reader), reader.diagnostics.count == before else {
            if reader.diagnostics.count == before {
                reader.error(at: node.location, "'\(kind.key)' states no expectation")
            }
            return nil
        }
        guard !checks.isEmpty else {
            reader.error(at: node.location, "'\(kind.key)' states no expectation")
            return nil
        }
        return checks.map(AnyCheck.init)
    }
}
