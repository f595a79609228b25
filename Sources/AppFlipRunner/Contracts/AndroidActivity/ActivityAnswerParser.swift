import AppFlipBase
import AppFlipModel

/// Reads one answer line of the Android adapter contract: `{"id": …, "result_code": -1, "data": {"extras": {…}} | null,
/// "finished": true}`. Anything else is a target error with a precise message; a well-formed answer that breaks App
/// Flip's rules (a String ERROR_TYPE, no data intent) is read as it is, for the checks to judge.
package enum ActivityAnswerParser {
    package static func parse(_ line: AnswerParser.Line, expectedID: String) -> Result<ActivityResult, AnswerParser.AnswerError> {
        guard String(validating: line.bytes, as: UTF8.self) != nil else { return .failure(.init("the answer line is not valid UTF-8")) }
        guard let object = line.value, case .object = object else { return .failure(.init(line.notAnObject)) }
        guard let id = object.member("id")?.string else { return .failure(.init("the answer has no string \"id\"")) }
        guard id == expectedID else {
            return .failure(
                .init(
                    "the answer is for id \(ByteText.display(id, limit: 80)), not for the request sent (\(ByteText.display(expectedID, limit: 80)))"))
        }
        guard case .number(let codeText) = object.member("result_code"), let code = Int32(codeText) else {
            return .failure(.init("the answer has no integer \"result_code\" (-1 RESULT_OK, -2 App Flip's error, 0 RESULT_CANCELED)"))
        }
        guard case .bool(let finished) = object.member("finished") else {
            return .failure(.init("the answer has no \"finished\" (true or false: whether the activity called finish())"))
        }
        var data: [NamedExtra]?
        switch object.member("data") {
        case nil:
            return .failure(.init("the answer has no \"data\" (null for no data intent, or {\"extras\": {…}})"))
        case .null?:
            data = nil
        case let value?:
            guard case .object = value, let extras = value.member("extras"), case .object(let members) = extras else {
                return .failure(.init("\"data\" is null or an object with an object \"extras\""))
            }
            var read: [NamedExtra] = []
            for member in members {
                switch IntentExtra.read(member.value) {
                case .success(let extra): read.append(NamedExtra(member.name, extra))
                case .failure(let problem): return .failure(.init("the extra \(ByteText.display(member.name, limit: 80)) \(problem.message)"))
                }
            }
            data = read
        }
        return .success(ActivityResult(resultCode: Int(code), data: data, finished: finished))
    }
}
