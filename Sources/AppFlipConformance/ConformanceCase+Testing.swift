#if canImport(Testing)
    import AppFlipSuite
    import Foundation
    import Testing

    // Swift Testing glue: one test per case, its failures as issues at the case file's line, warnings that do not fail
    // the test, skips with their reason. The one file that imports Testing, so the rest builds without it.

    extension ConformanceCase: CustomTestStringConvertible {
        public var testDescription: String { id }
    }

    extension ConformanceCase {
        /// Runs the case against `target` and records the outcome in the current test: each MUST or MUST NOT that did
        /// not hold, and a target error, as a failing issue at the case file's line, naming the requirement, expected
        /// and observed; each SHOULD or MAY that did not hold as a warning that does not fail the test; a skipped case
        /// as a cancelled (skipped) test with the reason.
        public func check(against target: ConformanceTarget) async throws {
            let result = await run(against: target)
            let location = sourceLocation
            for issue in result.issues {
                switch issue.severity {
                case .failure:
                    Issue.record(Comment(rawValue: issue.comment), sourceLocation: location)
                case .warning:
                    recordWarning(issue.comment, at: location)
                }
            }
            if result.verdict == .skip {
                try skip(result.message ?? "skipped", at: location)
            }
        }

        /// Where the case is written, for issues: the case file in the package's checkout.
        var sourceLocation: SourceLocation {
            SourceLocation(
                fileID: "AppFlipConformance/" + (file as NSString).lastPathComponent,
                filePath: BuiltInSuite.packageDirectory.appendingPathComponent(file).path, line: max(1, line), column: max(1, column))
        }
    }

    #if compiler(>=6.3)
        private func recordWarning(_ comment: String, at location: SourceLocation) {
            Issue.record(Comment(rawValue: comment), severity: .warning, sourceLocation: location)
        }

        private func skip(_ reason: String, at location: SourceLocation) throws {
            try Test.cancel(Comment(rawValue: "skipped: \(reason)"), sourceLocation: location)
        }
    #else
        // Before Swift 6.3 an issue has no severity and a test cannot be cancelled: a warning is a known issue (recorded,
        // not failing), a skip passes with its reason printed.
        private func recordWarning(_ comment: String, at location: SourceLocation) {
            withKnownIssue(Comment(rawValue: comment), sourceLocation: location) {
                Issue.record(Comment(rawValue: comment), sourceLocation: location)
            }
        }

        private func skip(_ reason: String, at location: SourceLocation) throws {
            print("skipped: \(reason)")
        }
    #endif

    extension Tag {
        /// The profile of a case (one test function per profile carries it).
        @Tag public static var appLink: Self
        @Tag public static var authorize: Self
        @Tag public static var token: Self
        @Tag public static var siteAssociation: Self
        @Tag public static var flip: Self
        @Tag public static var nativeClient: Self
        @Tag public static var androidAppFlip: Self
        /// The strongest level among a case's checks (`ConformanceCase.level`).
        @Tag public static var must: Self
        @Tag public static var should: Self
        @Tag public static var may: Self
    }

    extension Profile {
        /// The profile's tag.
        public var tag: Tag {
            switch self {
            case .appLink: .appLink
            case .authorize: .authorize
            case .token: .token
            case .siteAssociation: .siteAssociation
            case .flip: .flip
            case .nativeClient: .nativeClient
            case .androidAppFlip: .androidAppFlip
            }
        }
    }
#endif
