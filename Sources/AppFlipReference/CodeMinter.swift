/// Mints authorization codes: 32 characters from a 64-character alphabet (192 bits) drawn from the system RNG.
package enum CodeMinter {
    package static func mint() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        var generator = SystemRandomNumberGenerator()
        return String((0..<32).map { _ in alphabet[Int(generator.next() % 64)] })
    }
}
