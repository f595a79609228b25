import AppFlipModel
import Testing

@Suite("Link recipes and templates")
struct LinkRecipeTests {
    let configuration = RunConfiguration(
        link: "https://app.example/flip", clientID: "id with space", scope: "devices",
        redirectURI: "https://oauth-redirect.googleusercontent.com/a/com.google.OPA", seed: 9)

    private func context(_ caseID: String = "c") -> Template.Context {
        Template.Context(configuration: configuration, generated: GeneratedValues(seed: 9, caseID: caseID))
    }

    @Test("The base link carries the four parameters, form-encoded, in Google's order")
    func baseLink() {
        let state = GeneratedValues(seed: 9, caseID: "c").state
        #expect(
            LinkRecipe.base.build(in: context()) == "https://app.example/flip?client_id=id%20with%20space&scope=devices&state=\(state)"
                + "&redirect_uri=https%3A%2F%2Foauth-redirect.googleusercontent.com%2Fa%2Fcom.google.OPA")
    }

    @Test("Edits apply in order: remove, set, append, then order")
    func edits() throws {
        var recipe = LinkRecipe()
        recipe.remove = ["scope"]
        recipe.set = [
            .init(name: "state", value: try Template.parse("a&b"), isRaw: false),
            .init(name: "extra", value: try Template.parse("%FF"), isRaw: true),
        ]
        recipe.append = [.init(name: "state", value: try Template.parse("${client_id}"), isRaw: true)]
        recipe.order = ["state", "extra"]
        #expect(
            recipe.build(in: context()) == "https://app.example/flip?state=a%26b&state=id%20with%20space&extra=%FF&client_id=id%20with%20space"
                + "&redirect_uri=https%3A%2F%2Foauth-redirect.googleusercontent.com%2Fa%2Fcom.google.OPA")
    }

    @Test("A raw query keeps its literal bytes and encodes only the variables")
    func rawQuery() throws {
        var recipe = LinkRecipe()
        recipe.query = try Template.parse("client_id=${client_id}&x=%ZZ&&y=${repeat:3:ab}")
        recipe.fragment = try Template.parse("f")
        #expect(recipe.build(in: context()) == "https://app.example/flip?client_id=id%20with%20space&x=%ZZ&&y=ababab#f")
    }

    @Test("Generated values are deterministic per seed and case, and differ between them")
    func generatedValues() {
        #expect(GeneratedValues(seed: 1, caseID: "a") == GeneratedValues(seed: 1, caseID: "a"))
        #expect(GeneratedValues(seed: 1, caseID: "a").state != GeneratedValues(seed: 2, caseID: "a").state)
        #expect(GeneratedValues(seed: 1, caseID: "a").state != GeneratedValues(seed: 1, caseID: "b").state)
        #expect(GeneratedValues(seed: 1, caseID: "a").state.count == 24)
    }

    @Test("Templates reject unknown variables and oversized repeats, and '$$' writes '$'")
    func templates() throws {
        #expect(throws: Template.ParseError.self) { try Template.parse("${nope}") }
        #expect(throws: Template.ParseError.self) { try Template.parse("${repeat:99999999:x}") }
        #expect(throws: Template.ParseError.self) { try Template.parse("${client_id") }
        #expect(try Template.parse("$$5 and $x").resolve(in: context()) == "$5 and $x")
    }
}
