import AppFlipConformance
import AppFlipTestSupport
import Foundation
import Testing

/// The target the Swift Testing runner drives: the one the environment names (`APPFLIP_CONFIG`, `APPFLIP_HANDLER`,
/// `APPFLIP_HANDLER_URL`, with `APPFLIP_LINK` and `APPFLIP_CLIENT_ID`), or else the reference, with the reference
/// native client for the native-client cases. A wrong setting fails every case with the reason.
enum RunnerTarget {
    static let current: Result<ConformanceTarget, ConformanceTarget.EnvironmentError> = {
        do throws(ConformanceTarget.EnvironmentError) {
            return .success(
                try ConformanceTarget.environment()
                    ?? .reference(nativeClient: [BuiltProducts.path("appflip-reference"), "native-client"]))
        } catch {
            return .failure(error)
        }
    }()

    static func check(_ conformanceCase: ConformanceCase) async throws {
        try await conformanceCase.check(against: current.get())
    }
}

// The Swift Testing runner: every case of the suite, one test per case ID, grouped by profile and by the strongest
// level among its checks, so `swift test --filter AppLinkCases` or a tag (`.appLink`, `.must`) selects them.

@Suite("Cases: app-link", .tags(.appLink))
struct AppLinkCases {
    @Test(.tags(.must), arguments: AppFlipConformance.cases(.appLink, level: .must))
    func must(_ conformanceCase: ConformanceCase) async throws { try await RunnerTarget.check(conformanceCase) }
    @Test(.tags(.should), arguments: AppFlipConformance.cases(.appLink, level: .should))
    func should(_ conformanceCase: ConformanceCase) async throws { try await RunnerTarget.check(conformanceCase) }
    @Test(.tags(.may), arguments: AppFlipConformance.cases(.appLink, level: .may))
    func may(_ conformanceCase: ConformanceCase) async throws { try await RunnerTarget.check(conformanceCase) }
}

@Suite("Cases: authorize", .tags(.authorize))
struct AuthorizeCases {
    @Test(.tags(.must), arguments: AppFlipConformance.cases(.authorize, level: .must))
    func must(_ conformanceCase: ConformanceCase) async throws { try await RunnerTarget.check(conformanceCase) }
    @Test(.tags(.should), arguments: AppFlipConformance.cases(.authorize, level: .should))
    func should(_ conformanceCase: ConformanceCase) async throws { try await RunnerTarget.check(conformanceCase) }
    @Test(.tags(.may), arguments: AppFlipConformance.cases(.authorize, level: .may))
    func may(_ conformanceCase: ConformanceCase) async throws { try await RunnerTarget.check(conformanceCase) }
}

@Suite("Cases: token", .tags(.token))
struct TokenCases {
    @Test(.tags(.must), arguments: AppFlipConformance.cases(.token, level: .must))
    func must(_ conformanceCase: ConformanceCase) async throws { try await RunnerTarget.check(conformanceCase) }
    @Test(.tags(.should), arguments: AppFlipConformance.cases(.token, level: .should))
    func should(_ conformanceCase: ConformanceCase) async throws { try await RunnerTarget.check(conformanceCase) }
    @Test(.tags(.may), arguments: AppFlipConformance.cases(.token, level: .may))
    func may(_ conformanceCase: ConformanceCase) async throws { try await RunnerTarget.check(conformanceCase) }
}

@Suite("Cases: site-association", .tags(.siteAssociation))
struct SiteAssociationCases {
    @Test(.tags(.must), arguments: AppFlipConformance.cases(.siteAssociation, level: .must))
    func must(_ conformanceCase: ConformanceCase) async throws { try await RunnerTarget.check(conformanceCase) }
    @Test(.tags(.should), arguments: AppFlipConformance.cases(.siteAssociation, level: .should))
    func should(_ conformanceCase: ConformanceCase) async throws { try await RunnerTarget.check(conformanceCase) }
    @Test(.tags(.may), arguments: AppFlipConformance.cases(.siteAssociation, level: .may))
    func may(_ conformanceCase: ConformanceCase) async throws { try await RunnerTarget.check(conformanceCase) }
}

@Suite("Cases: flip", .tags(.flip))
struct FlipCases {
    @Test(.tags(.must), arguments: AppFlipConformance.cases(.flip, level: .must))
    func must(_ conformanceCase: ConformanceCase) async throws { try await RunnerTarget.check(conformanceCase) }
    @Test(.tags(.should), arguments: AppFlipConformance.cases(.flip, level: .should))
    func should(_ conformanceCase: ConformanceCase) async throws { try await RunnerTarget.check(conformanceCase) }
    @Test(.tags(.may), arguments: AppFlipConformance.cases(.flip, level: .may))
    func may(_ conformanceCase: ConformanceCase) async throws { try await RunnerTarget.check(conformanceCase) }
}

@Suite("Cases: native-client", .tags(.nativeClient))
struct NativeClientCases {
    @Test(.tags(.must), arguments: AppFlipConformance.cases(.nativeClient, level: .must))
    func must(_ conformanceCase: ConformanceCase) async throws { try await RunnerTarget.check(conformanceCase) }
    @Test(.tags(.should), arguments: AppFlipConformance.cases(.nativeClient, level: .should))
    func should(_ conformanceCase: ConformanceCase) async throws { try await RunnerTarget.check(conformanceCase) }
    @Test(.tags(.may), arguments: AppFlipConformance.cases(.nativeClient, level: .may))
    func may(_ conformanceCase: ConformanceCase) async throws { try await RunnerTarget.check(conformanceCase) }
}

@Suite("Cases: android-app-flip", .tags(.androidAppFlip))
struct AndroidAppFlipCases {
    @Test(.tags(.must), arguments: AppFlipConformance.cases(.androidAppFlip, level: .must))
    func must(_ conformanceCase: ConformanceCase) async throws { try await RunnerTarget.check(conformanceCase) }
    @Test(.tags(.should), arguments: AppFlipConformance.cases(.androidAppFlip, level: .should))
    func should(_ conformanceCase: ConformanceCase) async throws { try await RunnerTarget.check(conformanceCase) }
    @Test(.tags(.may), arguments: AppFlipConformance.cases(.androidAppFlip, level: .may))
    func may(_ conformanceCase: ConformanceCase) async throws { try await RunnerTarget.check(conformanceCase) }
}

@Suite("The Swift Testing runner's selection")
struct RunnerSelectionTests {
    @Test("Every case of the suite is in exactly one profile-and-level test function")
    func everyCaseOnce() {
        #expect(AppFlipConformance.loadingProblem == nil)
        let all = AppFlipConformance.cases()
        #expect(all.count >= 250)
        let selected = Profile.allCases.flatMap { profile in
            [Level.must, .should, .may].flatMap { AppFlipConformance.cases(profile, level: $0).map(\.id) }
        }
        #expect(selected.sorted() == all.map(\.id).sorted())
        #expect(Set(all.map(\.id)).count == all.count)
    }
}
