import AppFlipBase
import AppFlipModel
import AppFlipTestSupport
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

    @Test("Edited links against the edits' definition on 5,000 seeded recipes: odd names encoded, raw values kept")
    func editedLinksAgainstDefinition() throws {
        let names = ["client_id", "scope", "state", "redirect_uri", "extra", "a b", "é", "x&y", "n=1", "Ω~"]
        let values = ["", "v", "a b", "a&b=c", "é", "%41", "100%", "💡", "~-._", "x+y"]
        var random = Mutator(seed: 1209)
        let base: [(String, String)] = [
            ("client_id", "id with space"), ("scope", "devices"), ("state", GeneratedValues(seed: 9, caseID: "c").state),
            ("redirect_uri", "https://oauth-redirect.googleusercontent.com/a/com.google.OPA"),
        ]
        for _ in 0..<5_000 {
            var recipe = LinkRecipe()
            func parameter(_ random: inout Mutator) throws -> (LinkRecipe.Parameter, written: String) {
                let name = names[random.below(names.count)]
                let value = values[random.below(values.count)]
                let isRaw = random.below(3) == 0
                // A raw value is written as it is (none has a `$`); any other is form-encoded.
                return (.init(name: name, value: try Template.parse(value), isRaw: isRaw), isRaw ? value : FormEncoding.encode(value))
            }
            recipe.remove = (0..<random.below(3)).map { _ in names[random.below(names.count)] }
            let set = try (0..<random.below(4)).map { _ in try parameter(&random) }
            let append = try (0..<random.below(3)).map { _ in try parameter(&random) }
            recipe.set = set.map(\.0)
            recipe.append = append.map(\.0)
            recipe.order = (0..<random.below(3)).map { _ in names[random.below(names.count)] }
            let fragment = random.below(4) == 0 ? values[random.below(values.count)] : nil
            recipe.fragment = try fragment.map { try Template.parse($0) }
            // The definition: remove, set (replacing the first of a name, else appended), append, then order.
            var pairs = base.map { ($0.0, FormEncoding.encode($0.1)) }.filter { !recipe.remove.contains($0.0) }
            for (parameter, written) in set {
                if let index = pairs.firstIndex(where: { $0.0 == parameter.name }) {
                    pairs[index].1 = written
                } else {
                    pairs.append((parameter.name, written))
                }
            }
            pairs += append.map { ($0.0.name, $0.written) }
            if !recipe.order.isEmpty {
                pairs = recipe.order.flatMap { name in pairs.filter { $0.0 == name } } + pairs.filter { !recipe.order.contains($0.0) }
            }
            let query = pairs.map { name, value in
                let unreserved = name.utf8.allSatisfy { FormEncoding.isUnreserved($0) }
                return (unreserved ? name : FormEncoding.encode(name)) + "=" + value
            }.joined(separator: "&")
            #expect(recipe.buildQuery(in: context()) == query)
            let link = "https://app.example/flip?" + query + (fragment.map { "#" + $0 } ?? "")
            #expect(recipe.build(in: context()) == link)
        }
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

    @Test("Generated values are the first 144 bits of SHA-256 over the seed, purpose and case ID, in base64url")
    func generatedValueVectors() {
        // Python: base64.urlsafe_b64encode(hashlib.sha256(struct.pack("<Q", seed) + purpose + b"\0" + case_id).digest()[:18])
        #expect(GeneratedValues(seed: 1, caseID: "a").state == "pnq-F4LTw4ExpagEH-3qb2yq")
        #expect(GeneratedValues(seed: 9, caseID: "c").state == "g67Fe8-Flt4FoCiTgLN_jGwt")
        #expect(GeneratedValues(seed: 1, caseID: "x").requestID(step: 0, repetition: 0) == "uK6kC9SyR27aN1oH7t8rq19v")
        #expect(GeneratedValues(seed: .max, caseID: "app-link/baseline/valid-link").nonce == "j31kRHhc8mQBXmGpux2M1IIp")
        #expect(GeneratedValues(seed: 42, caseID: "é/ü").codeVerifier.hasPrefix("bF24f-4FW1Au1OhajTzVvyg8"))
        // A case ID longer than a stack buffer's worth.
        let long = String(repeating: "é", count: 5_000)
        #expect(GeneratedValues(seed: 7, caseID: long).state == "eQm5ODqh390ZqNmi6tLv1qGJ")
    }

    @Test("Templates reject unknown variables and oversized repeats, and '$$' writes '$'")
    func templates() throws {
        #expect(throws: Template.ParseError.self) { try Template.parse("${nope}") }
        #expect(throws: Template.ParseError.self) { try Template.parse("${repeat:99999999:x}") }
        #expect(throws: Template.ParseError.self) { try Template.parse("${client_id") }
        #expect(try Template.parse("$$5 and $x").resolve(in: context()) == "$5 and $x")
    }
}
