import AppFlipModel
import AppFlipSuite
import AppFlipSyntax

/// The App Flip conformance suite as a library: the cases built into this package, and how to run them against a
/// target, in a test target or anywhere else.
///
/// ```swift
/// import AppFlipConformance
/// import Testing
///
/// @Test(arguments: AppFlipConformance.cases(.appLink))
/// func appFlip(_ conformanceCase: ConformanceCase) async {
///     await conformanceCase.check(against: .handler(MyHandler(), link: .init("https://app.example/flip", clientID: "google")))
/// }
/// ```
public enum AppFlipConformance {
    /// The suite's semantic version (the same as `appflip-conformance --version`).
    public static let version = SuiteVersion.current

    /// Every case of the suite, or of one profile, in the order of the case files. Empty only if the built-in
    /// suite does not load, which `loadingProblem` then describes.
    public static func cases(_ profile: Profile? = nil) -> [ConformanceCase] {
        guard case .success(let suite) = builtIn else { return [] }
        return suite.cases.lazy.filter { profile == nil || $0.profile == profile }.map(ConformanceCase.init)
    }

    /// The cases of one profile whose strongest check is at `level` (MUST and MUST NOT together, SHOULD and SHOULD
    /// NOT together): one test function per profile and level lets tags and filters select them.
    public static func cases(_ profile: Profile, level: Level) -> [ConformanceCase] {
        cases(profile).filter { $0.level.isMandatory == level.isMandatory && $0.level.isRecommended == level.isRecommended }
    }

    /// The case with this ID, if the suite has it.
    public static func `case`(_ id: String) -> ConformanceCase? {
        guard case .success(let suite) = builtIn else { return nil }
        return suite.cases.first { $0.id == id }.map(ConformanceCase.init)
    }

    /// Why the built-in suite did not load (a build from a damaged checkout), or nil.
    public static var loadingProblem: String? {
        guard case .failure(let error) = builtIn else { return nil }
        return error.description
    }

    /// The built-in catalog and cases, loaded once.
    static let builtIn: Result<CaseSuite, DiagnosticList> = {
        do throws(DiagnosticList) {
            return .success(try BuiltInSuite.suite().1)
        } catch {
            return .failure(error)
        }
    }()
}
