/// What the partner's activity gave back, as the Android adapter contract reports it: the result code it set, the
/// data intent's extras (nil when it set no data intent), and whether it called `finish()`.
package struct ActivityResult: Sendable, Hashable {
    /// `Activity.RESULT_OK`: a code is returned.
    package static let ok = -1
    /// `Activity.RESULT_CANCELED`: also what an activity that never calls `setResult` gives.
    package static let canceled = 0
    /// App Flip's error result.
    package static let error = -2

    /// The result extras App Flip defines, with the type each must have.
    package static let contractTypes: [(name: String, type: String)] = [
        ("AUTHORIZATION_CODE", "String"), ("ERROR_TYPE", "int"), ("ERROR_CODE", "int"), ("ERROR_DESCRIPTION", "String"),
    ]
    /// The `ERROR_TYPE` values: recoverable, unrecoverable, invalid request.
    package static let errorTypes = 1...3

    package var resultCode: Int
    /// The data intent's extras in the order reported, or nil when there is no data intent.
    package var data: [NamedExtra]?
    package var finished: Bool
    /// The caller the request named (`getCallingActivity()` and its certificate; nil: none), set by the runner from
    /// the intent it sent: some checks depend on whether the activity allows it.
    package var requestCaller: AndroidCaller?
    /// Set when the activity crashed handling the request (its adapter died or closed its output without answering):
    /// how. Android then hands the caller RESULT_CANCELED with no data, which is what this result holds.
    package var crash: String?

    /// What Google receives from an activity whose process died: RESULT_CANCELED, no data intent.
    package static func crashed(_ how: String) -> ActivityResult {
        var result = ActivityResult(resultCode: canceled, data: nil, finished: true)
        result.crash = how
        return result
    }

    package init(resultCode: Int, data: [NamedExtra]?, finished: Bool) {
        self.resultCode = resultCode
        self.data = data
        self.finished = finished
    }

    /// Whether the result hands Google a code: RESULT_OK with a non-empty String `AUTHORIZATION_CODE`.
    package var grantsCode: Bool {
        guard resultCode == Self.ok, case .string(let code)? = extra("AUTHORIZATION_CODE") else { return false }
        return !code.isEmpty
    }

    /// The data intent's extra of that name (the last, were one repeated), or nil.
    package func extra(_ name: String) -> IntentExtra? { data?.last { $0.name == name }?.value }

    /// The result code with its name: `-1 (RESULT_OK)`.
    package static func name(of code: Int) -> String {
        switch code {
        case ok: "-1 (RESULT_OK)"
        case canceled: "0 (RESULT_CANCELED)"
        case error: "-2 (App Flip error)"
        default: "\(code)"
        }
    }

    /// One line for a report: `-2 (App Flip error), ERROR_TYPE int 2, ERROR_CODE int 13; finished`. A code is never
    /// shown, only its type and length: reports never carry one.
    package var summary: String {
        let extras =
            data.map { data in
                data.isEmpty ? "a data intent with no extras" : data.map { "\($0.name) " + Self.shown($0.name, $0.value) }.joined(separator: ", ")
            } ?? "no data intent"
        if let crash { return "the activity crashed (\(crash)): Android hands the caller " + Self.name(of: resultCode) + " with no data intent" }
        return Self.name(of: resultCode) + ", " + extras + (finished ? "; finished" : "; the activity did not finish")
    }

    /// An extra as a report shows it; `AUTHORIZATION_CODE`'s value is a secret, so only its type and length show.
    package static func shown(_ name: String, _ value: IntentExtra) -> String {
        guard name == "AUTHORIZATION_CODE", case .string(let code) = value else { return value.display }
        return code.isEmpty ? "String \"\" (empty)" : "String of \(code.count) characters"
    }
}

extension ActivityResult {
    /// How a reason names an activity's step, and its result, for a check that does not judge them.
    package static let stepNoun = "an Android activity"
    static let resultNoun = "an Android activity's result"
}
