import AppFlipBase

/// What one certification covers, as the OpenID Foundation certifies a profile: a name a reviewer signs, the
/// profiles whose cases must all be judged, and so the requirements of those profiles (each requirement names its
/// profile). Declared once, in the catalog's `programs:` section; `run --certification PROGRAM` judges all of it.
package struct CertificationProgram: Sendable, Hashable {
    /// The name `--certification` takes (`app-flip-ios`).
    package var key: String
    /// The name a certificate carries (`App Flip for iOS`).
    package var title: String
    /// The profiles it needs, each judged in full: none may be left out or skipped.
    package var profiles: [Profile]
    /// What it covers, in one paragraph, for Documentation/Certification.md and the report.
    package var covers: String
    /// Requirement IDs (globs with `*` and `?`) of its profiles it does not need, and why.
    package var leavesOut: [String] = []
    package var leavesOutWhy: String?
    /// What the run's configuration must give for every case of the program to be judged (`needs:`), checked before
    /// a certification run connects to anything. The adapters its profiles' contracts send through are needs too,
    /// and not written here: each contract knows its own.
    package var needs: [ProgramNeed] = []

    package init(
        key: String, title: String, profiles: [Profile], covers: String, leavesOut: [String] = [], leavesOutWhy: String? = nil,
        needs: [ProgramNeed] = []
    ) {
        self.needs = needs
        self.key = key
        self.title = title
        self.profiles = profiles
        self.covers = covers
        self.leavesOut = leavesOut
        self.leavesOutWhy = leavesOutWhy
    }

    /// Whether a requirement belongs to the program: its profile is one of the program's, and it is not left out.
    package func needs(_ requirement: Requirement) -> Bool {
        profiles.contains { $0.rawValue == requirement.profile } && !leavesOut(requirement.id)
    }

    /// Whether the program judges a case: one of its profiles, checking at least one requirement not left out.
    package func judges(_ conformanceCase: ConformanceCase) -> Bool {
        profiles.contains(conformanceCase.profile) && conformanceCase.requirements.contains { !leavesOut($0.id) }
    }

    /// The program's complete case list: the IDs of the suite's cases it judges, in the suite's order.
    package func caseIDs(in cases: [ConformanceCase]) -> [String] {
        cases.filter(judges).map(\.id)
    }

    /// Whether the program leaves the requirement `id` out.
    package func leavesOut(_ id: String) -> Bool {
        leavesOut.contains { Glob.matches($0, id) }
    }
}

extension Catalog {
    /// The program named `key`, or nil.
    package func program(_ key: String) -> CertificationProgram? {
        programs.first { $0.key == key }
    }

    /// The requirements a program needs that no machine judges (`not_observable`): a reviewer attests them.
    package func toAttest(for programs: [CertificationProgram]) -> [Requirement] {
        requirements.filter { requirement in requirement.notObservable != nil && programs.contains { $0.needs(requirement) } }
    }
}
