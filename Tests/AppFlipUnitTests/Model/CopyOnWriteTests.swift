import AppFlipTestSupport
import Testing

@testable import AppFlipModel

/// Cases and results keep their members in one shared box: a copy must still behave as a value.
@Suite("Copy on write")
struct CopyOnWriteTests {
    @Test("A changed copy of a case or a result leaves the original as it was, and equal values compare equal")
    func valueSemantics() {
        let original = Fixtures.conformanceCase("app-link/demo/original")
        var copy = original
        #expect(copy == original)
        copy.title = "changed"
        copy.steps[0].repeatCount = 3
        #expect(original.title == "Title of app-link/demo/original")
        #expect(original.steps[0].repeatCount == 1)
        #expect(copy != original)
        var rebuilt = copy
        rebuilt.title = original.title
        rebuilt.steps[0].repeatCount = 1
        #expect(rebuilt == original, "equal members in different boxes are equal")
        #expect(rebuilt.hashValue == original.hashValue)

        let result = CaseResult(conformanceCase: original, verdict: .pass, checks: [], evidence: Evidence(), duration: 0)
        var changed = result
        changed.message = "a note"
        changed.conformanceCase.group = "elsewhere"
        #expect(result.message == nil)
        #expect(result.conformanceCase.group == "app-link/demo")
        changed.message = nil
        changed.conformanceCase.group = "app-link/demo"
        #expect(changed == result, "a note set and cleared leaves no trace")
    }
}
