extension IntentRecipe {
    /// The bytes the recipe's `${repeat}` variables expand to.
    var repeatedBytes: Int {
        self.set.reduce(0) { total, entry in
            switch entry.value {
            case .string(let template): total + template.repeatedBytes
            case .stringArray(let templates): total + templates.reduce(0) { $0 + $1.repeatedBytes }
            case .int: total
            }
        }
    }
}
