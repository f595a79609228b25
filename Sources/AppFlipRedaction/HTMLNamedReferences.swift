/// The named HTML character references redaction decodes (WHATWG HTML §13.5): every one for ASCII punctuation and
/// for Latin-1 (U+00A0 to U+00FF), the ones an HTML escaper writes for characters a secret may hold. (`~` has none:
/// `&tilde;` is U+02DC.)
enum HTMLNamedReferences {
    /// The longest name below, in bytes.
    static let longestName = scalars.keys.map(\.utf8.count).max() ?? 0

    /// The scalar a reference's name (between `&` and `;`) stands for, or nil for a name not listed.
    static func scalar(named name: some Collection<UInt8>) -> Unicode.Scalar? {
        guard name.count <= longestName else { return nil }
        return scalars[String(decoding: name, as: UTF8.self)]
    }

    private static let scalars: [String: Unicode.Scalar] = {
        var table: [String: Unicode.Scalar] = [
            "Tab": "\t", "NewLine": "\n", "excl": "!", "quot": "\"", "QUOT": "\"", "num": "#", "dollar": "$", "percnt": "%",
            "amp": "&", "AMP": "&", "apos": "'", "lpar": "(", "rpar": ")", "ast": "*", "midast": "*", "plus": "+", "comma": ",",
            "period": ".", "sol": "/", "colon": ":", "semi": ";", "lt": "<", "LT": "<", "equals": "=", "gt": ">", "GT": ">",
            "quest": "?", "commat": "@", "lsqb": "[", "lbrack": "[", "bsol": "\\", "rsqb": "]", "rbrack": "]", "Hat": "^",
            "lowbar": "_", "UnderBar": "_", "grave": "`", "DiacriticalGrave": "`", "lcub": "{", "lbrace": "{", "verbar": "|",
            "vert": "|", "VerticalLine": "|", "rcub": "}", "rbrace": "}",
        ]
        // U+00A0 to U+00FF in order, as HTML 4 named them (HTML5 keeps every one).
        let latin1 = """
            nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 sup3 acute micro \
            para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave Aacute Acirc Atilde Auml Aring AElig Ccedil \
            Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve Oacute Ocirc Otilde Ouml times Oslash Ugrave \
            Uacute Ucirc Uuml Yacute THORN szlig agrave aacute acirc atilde auml aring aelig ccedil egrave eacute ecirc euml \
            igrave iacute icirc iuml eth ntilde ograve oacute ocirc otilde ouml divide oslash ugrave uacute ucirc uuml yacute \
            thorn yuml
            """
        for (offset, name) in latin1.split(separator: " ").enumerated() {
            if let scalar = Unicode.Scalar(0xA0 + UInt32(offset)) { table[String(name)] = scalar }
        }
        return table
    }()

    /// Every name and the scalar it stands for (the tests encode with them).
    static var all: [(name: String, scalar: Unicode.Scalar)] { scalars.map { ($0.key, $0.value) } }
}
