import AppFlipModel

/// How `error_type` and `error_code` judge an int extra of an activity's result.
enum ActivityIntegerExtra {
    static func judge(_ name: String, _ result: ActivityResult, holds: (Int) -> Bool) -> CheckOutcome {
        guard result.data != nil else {
            return .notApplicable(reason: "no data intent, so no \(name) ('error_result' judges that)")
        }
        guard let value = result.extra(name) else {
            return .violated(observed: "no \(name) (result \(ActivityResult.name(of: result.resultCode)))")
        }
        guard let number = value.int else {
            return .notApplicable(reason: "\(name) is \(value.display), not an int ('error_result' judges that)")
        }
        return CheckOutcome(holds(number), "\(name) \(number)")
    }
}
