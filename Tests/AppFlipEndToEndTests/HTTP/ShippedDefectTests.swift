import AppFlipDefects
import AppFlipReferenceServer
import AppFlipTestSupport
import Foundation
import Testing

/// The defects the package ships: `appflip-reference serve --defect` has exactly the catalog's servers, lists them,
/// refuses other names, and `detection` runs them and reads what the suite found.
@Suite("Shipped defects")
struct ShippedDefectTests {
    @Test("Every server in the catalog has a behaviour, and every behaviour is in the catalog")
    func behavioursMatchCatalog() {
        let configuration = ReferenceServerConfiguration(clientSecret: "s")
        #expect(
            Set(ServerDefectBehaviours.names(configuration: configuration)) == Set(ServerDefects.all.map(\.name)),
            "\(Set(ServerDefectBehaviours.names(configuration: configuration)).symmetricDifference(ServerDefects.all.map(\.name)))")
    }

    @Test("serve --help lists each server defect as '  NAME: description'; an unknown name is refused")
    func serveHelp() throws {
        let help = try ProgramRun.run(BuiltProducts.path("appflip-reference"), ["serve", "--help"])
        #expect(help.status == 0)
        for defect in ServerDefects.all {
            #expect(help.output.contains("  \(defect.name): \(defect.summary)"), "\(defect.name) is not listed")
        }
        let unknown = try ProgramRun.run(BuiltProducts.path("appflip-reference"), ["serve", "--defect", "no-such-defect", "--port", "0"])
        #expect(unknown.status == 2)
        #expect(unknown.output.contains("no server defect is called 'no-such-defect'"), "\(unknown.output)")
    }

    @Test("detection runs a server defect, a handler's and a variant, prints what each showed and the count line")
    func detectionRuns() throws {
        let run = try ProgramRun.run(
            BuiltProducts.path("appflip-conformance"),
            ["detection", "--defect", "server/no-no-store", "--defect", "link-handler/trims-state", "--defect", "server/s256-only", "--seed", "5"])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("ok       server/no-no-store: fails TOK-GEN-007"), "\(run.output)")
        #expect(run.output.contains("ok       link-handler/trims-state: fails AF-LINK-010"), "\(run.output)")
        #expect(run.output.contains("ok       server/s256-only: fails and warns nothing"), "\(run.output)")
        #expect(run.output.contains("  TOK-GEN-007 (MUST, token): server/no-no-store"), "\(run.output)")
        #expect(run.output.contains("detection: 2 of "), "\(run.output)")
        #expect(run.output.contains("automated MUST/MUST NOT requirements failed by a shipped defect (2 defects run)"), "\(run.output)")
    }
}
