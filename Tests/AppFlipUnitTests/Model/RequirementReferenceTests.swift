import AppFlipModel
import Testing

@Suite("Requirement references")
struct RequirementReferenceTests {
    @Test(
        "IDs are upper-case words and digits joined by single hyphens",
        arguments: [
            ("AF-LINK-005", true), ("NAT-REQ-004", true), ("TOK-CODE-001", true), ("A-1", true), ("NAT-MIX-001-S", true),
            ("AF", false), ("", false), ("af-link-005", false), ("AF-LINK-", false), ("-AF-LINK", false), ("AF--LINK", false),
            ("AF-LİNK-005", false), ("AF-LINK-٥", false), ("AF_LINK-005", false), ("AF-LINK 005", false),
        ])
    func wellFormed(_ id: String, _ expected: Bool) {
        #expect(RequirementReference.isWellFormedID(id) == expected)
    }

    @Test("A reference is an ID and a level; anything else is refused")
    func parsing() {
        #expect(RequirementReference(parsing: "AF-LINK-005 MUST NOT")?.level == .mustNot)
        #expect(RequirementReference(parsing: "AF-LINK-005  SHOULD")?.id == "AF-LINK-005")
        #expect(RequirementReference(parsing: "AF-LINK-005") == nil)
        #expect(RequirementReference(parsing: "af-link-005 MUST") == nil)
        #expect(RequirementReference(parsing: "AF-LINK-005 MUSTN'T") == nil)
    }
}
