import AppFlipChecks
import AppFlipTestSupport
import Foundation
import Testing

@testable import AppFlipModel

/// FORMAT.md is the contract any runner must follow; its tables of `expect` keys are rendered from the check
/// registry, so the document and the code cannot drift apart.
@Suite("Format contract")
struct FormatContractTests {
    private func format() throws -> String {
        try String(contentsOfFile: PackageRoot.url.appendingPathComponent("Conformance/FORMAT.md").path, encoding: .utf8)
    }

    @Test("FORMAT.md lists exactly the registry's answer checks, as the registry documents them")
    func answerTable() throws {
        let table = CheckRegistry.documentationTable(.answer)
        #expect(try format().contains(table), "FORMAT.md must contain, under ### `expect`:\n\(table)")
    }

    @Test("FORMAT.md lists exactly the registry's response checks, as the registry documents them")
    func responseTable() throws {
        let table = CheckRegistry.documentationTable(.response)
        #expect(try format().contains(table), "FORMAT.md must contain, under ## Steps:\n\(table)")
    }

    @Test("FORMAT.md lists exactly the registry's native-client checks, as the registry documents them")
    func nativeTable() throws {
        let table = CheckRegistry.documentationTable(.native)
        #expect(try format().contains(table), "FORMAT.md must contain, under ### Native-client steps:\n\(table)")
    }

    @Test("FORMAT.md lists exactly the registry's Android App Flip checks, as the registry documents them")
    func activityTable() throws {
        let table = CheckRegistry.documentationTable(.activity)
        #expect(try format().contains(table), "FORMAT.md must contain, under ### Android App Flip steps:\n\(table)")
    }

    @Test("FORMAT.md's list of checks on an opened URL's content is the registry's, as each kind names its form")
    func openedURLForms() throws {
        let sentence = "Checks on the opened URL's content (\(CheckRegistry.openedURLForms))"
        let text = try format().replacingOccurrences(of: "\n", with: " ")
        #expect(text.contains(sentence) == true, "FORMAT.md must say: \(sentence)")
    }

    @Test("Every key a check table in FORMAT.md names is a registered check (or one_of)")
    func noStaleRows() throws {
        let rows = try format().split(separator: "\n").filter { $0.hasPrefix("| `") }
        let header = try format().components(separatedBy: "| Key | Values | Holds when |").dropFirst()
        let keys = header.flatMap { section in
            section.split(separator: "\n").dropFirst(1).prefix { $0.hasPrefix("| `") }
                .compactMap { $0.split(separator: "`").dropFirst().first.map(String.init) }
        }
        #expect(!rows.isEmpty)
        #expect(Set(keys) == Set(CheckRegistry.keys), "FORMAT.md's check tables name \(keys.sorted())")
    }

    @Test("Registry keys are unique and every kind reads its own key")
    func uniqueKeys() {
        #expect(Set(CheckRegistry.keys).count == CheckRegistry.kinds.count)
        for key in CheckRegistry.keys { #expect(CheckRegistry.kind(for: key) != nil) }
    }

    @Test("FORMAT.md names every requirement the audit judges on every native sign-in, and no other")
    func everySignInAudits() throws {
        let text = try String(contentsOfFile: PackageRoot.url.appendingPathComponent("Conformance/FORMAT.md").path, encoding: .utf8)
        let sentence = try #require(
            text.components(separatedBy: "Every `sign_in` step is\nalso judged").dropFirst().first?
                .components(separatedBy: "each the step does not name itself").first)
        let named = Set(sentence.matches(of: /NAT-[A-Z]+-\d{3}(-S)?/).map { String($0.output.0) })
        #expect(named == Set(AuditCheck.everySignIn), "FORMAT.md names \(named.sorted())")
    }
}
