import Foundation

/// A recorded result's texts in its run's spool (`ResultSpool`): its checks' expectations and observations, then its
/// evidence, each a record of its own so a report that needs one reads only that. In the file a text is its UTF-8
/// length (32 bits, little-endian) then its bytes, byte for byte as judged; a number is 64 bits.
struct SpooledTexts: Sendable {
    let spool: ResultSpool
    private let offset: Int
    /// The byte counts of the checks' texts and of the evidence (a result's texts are bounded far below 4 GiB).
    private let checksLength: UInt32
    private let evidenceLength: UInt32
    /// The checks' outlines, among the spool's words.
    private let span: ResultSpool.OutlineSpan

    /// Spools `checks` (their outlines as words, a text the run's results share as its number, the other texts in
    /// the file) and `evidence`; nil when the spool cannot take them (the result keeps them in memory).
    init?(checks: [CheckResult], evidence: Evidence, into spool: ResultSpool) {
        guard let kept = spool.keep(checks) else { return nil }
        var writer = Writer()
        writer.number(checks.count)
        for (index, check) in checks.enumerated() {
            writer.text(check.expected, shared: kept.texts[2 * index])
            writer.text(check.seenText, shared: kept.texts[2 * index + 1])
        }
        let checksLength = writer.bytes.count
        writer.text(evidence.link)
        writer.text(evidence.answer)
        writer.text(evidence.stderr)
        writer.number(evidence.exchanges.count)
        for exchange in evidence.exchanges { writer.exchange(exchange) }
        guard !writer.overlong, let checksLength = UInt32(exactly: checksLength),
            let evidenceLength = UInt32(exactly: writer.bytes.count - Int(checksLength)), let offset = spool.append(writer.bytes)
        else { return nil }
        self.spool = spool
        self.offset = offset
        self.checksLength = checksLength
        self.evidenceLength = evidenceLength
        self.span = kept.span
    }

    /// What each check judged, without its texts.
    var outlines: [CheckOutline] { spool.outlines(span) }

    /// The checks as judged, from their outlines and their spooled texts; a text the spool cannot give back is said
    /// as such (the verdicts, kept in memory, stand).
    var checks: [CheckResult] { checks(where: { _ in true }) }

    /// The checks whose outlines `include` takes, as `checks` gives them; the texts of the others are skipped, not
    /// decoded (a report's findings are a case's few failed checks of many).
    func checks(where include: (CheckOutline) -> Bool) -> [CheckResult] {
        let outlines = self.outlines
        guard outlines.contains(where: include) else { return [] }
        let bytes = spool.read(at: offset, length: Int(checksLength))
        return spool.withSharedTexts { shared in
            var reader = Reader(bytes, shared: shared)
            let count = reader.count()
            var checks: [CheckResult] = []
            checks.reserveCapacity(outlines.count)
            for (index, outline) in outlines.enumerated() {
                guard include(outline) else {
                    if index < count { reader.skipTexts(2) }
                    continue
                }
                let texts = index < count ? (reader.text(), reader.text()) : (nil, nil)
                checks.append(
                    CheckResult(
                        requirement: outline.requirement, verdict: outline.verdict, expected: texts.0 ?? Self.unreadable,
                        seenText: texts.1 ?? Self.unreadable, applicable: outline.isApplicable))
            }
            return checks
        }
    }

    /// The evidence as recorded.
    var evidence: Evidence {
        var reader = Reader(spool.read(at: offset + Int(checksLength), length: Int(evidenceLength)))
        guard let link = reader.text(), let answer = reader.text(), let stderr = reader.text() else {
            return Evidence(answer: Self.unreadable)
        }
        let count = reader.count()
        var exchanges: [Evidence.Exchange] = []
        exchanges.reserveCapacity(count)
        for _ in 0..<count {
            guard let exchange = reader.exchange() else { return Evidence(link: link, answer: answer, stderr: stderr + "\n" + Self.unreadable) }
            exchanges.append(exchange)
        }
        return Evidence(link: link, answer: answer, stderr: stderr, exchanges: exchanges)
    }

    /// What a report says where a text could not be read back (an I/O error on the temporary file).
    static let unreadable = "(the suite could not read this text back from its temporary file)"

    /// Bytes written in the spool's form.
    private struct Writer {
        var bytes: [UInt8] = []
        /// Whether a text written out was 2 GiB or longer: its length would read as a shared text's number.
        var overlong = false

        mutating func number(_ value: Int) { bits(UInt64(truncatingIfNeeded: value)) }

        mutating func bits(_ value: UInt64) { littleEndian(value, width: 8) }

        /// `text` as its length and its bytes, or, when the run's results share it, as its number with the top bit
        /// of the length's 32 set.
        mutating func text(_ text: String, shared: UInt32? = nil) {
            if let shared {
                word(Reader.sharedFlag | shared)
                return
            }
            var text = text
            text.withUTF8 { utf8 in
                if utf8.count >= Int(Reader.sharedFlag) { overlong = true }
                word(UInt32(truncatingIfNeeded: utf8.count))
                bytes.append(contentsOf: utf8)
            }
        }

        private mutating func word(_ value: UInt32) { littleEndian(UInt64(value), width: 4) }

        /// `value`'s low `width` bytes, the lowest first.
        private mutating func littleEndian(_ value: UInt64, width: Int) {
            for shift in 0..<width { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(8 * shift))) }
        }

        mutating func exchange(_ exchange: Evidence.Exchange) {
            text(exchange.transcript)
            // Present or not, then the value: a date to the bit, so a report written from the spool is the same.
            number(exchange.sentAt == nil ? 0 : 1)
            bits((exchange.sentAt?.timeIntervalSinceReferenceDate ?? 0).bitPattern)
            number(exchange.milliseconds == nil ? 0 : 1)
            number(exchange.milliseconds ?? 0)
            for headers in [exchange.requestHeaders, exchange.responseHeaders] {
                number(headers.count)
                for header in headers {
                    text(header.name)
                    text(header.value)
                }
            }
        }
    }

    /// Bytes read in the spool's form; every read after a short one gives nil (or 0 for a count), as does a shared
    /// text's number that `shared` does not have (evidence is never shared: its reader has none).
    private struct Reader {
        private let bytes: [UInt8]
        private let shared: [String]
        private var index = 0
        private var failed: Bool

        /// The top bit of a text's 32-bit length: set, the other 31 are the number of a shared text.
        static let sharedFlag: UInt32 = 1 << 31

        init(_ bytes: [UInt8]?, shared: [String] = []) {
            self.bytes = bytes ?? []
            self.shared = shared
            failed = bytes == nil
        }

        mutating func number() -> Int { Int(truncatingIfNeeded: bits() ?? 0) }

        /// A count of what follows, never more than the bytes left could hold.
        mutating func count() -> Int { max(0, min(number(), bytes.count - index)) }

        mutating func bits() -> UInt64? { littleEndian(width: 8) }

        /// The next `width` bytes as a little-endian number, read past; nil (and every read after it failing) when
        /// fewer are left.
        private mutating func littleEndian(width: Int) -> UInt64? {
            guard !failed, bytes.count - index >= width else {
                failed = true
                return nil
            }
            var value: UInt64 = 0
            for shift in 0..<width { value |= UInt64(bytes[index + shift]) << UInt64(8 * shift) }
            index += width
            return value
        }

        mutating func text() -> String? {
            switch field() {
            case .written(let count):
                defer { index += count }
                return String(decoding: bytes[index..<index + count], as: UTF8.self)
            case .shared(let number):
                guard number < shared.count else {
                    failed = true
                    return nil
                }
                return shared[number]
            case nil:
                return nil
            }
        }

        /// Moves past `count` texts without decoding them.
        mutating func skipTexts(_ count: Int) {
            for _ in 0..<count {
                guard case .written(let length)? = field() else { continue }
                index += length
            }
        }

        /// How a text is spooled: its bytes here, or the number of a shared text.
        private enum Field {
            case written(Int)
            case shared(Int)
        }

        /// A text's length or number, read past; nil (and every read after it failing) when it or its bytes run past
        /// the end.
        private mutating func field() -> Field? {
            guard let word = littleEndian(width: 4).map(UInt32.init(truncatingIfNeeded:)) else { return nil }
            if word & Self.sharedFlag != 0 { return .shared(Int(word & ~Self.sharedFlag)) }
            let count = Int(word)
            guard bytes.count - index >= count else {
                failed = true
                return nil
            }
            return .written(count)
        }

        mutating func exchange() -> Evidence.Exchange? {
            guard let transcript = text() else { return nil }
            let hasDate = number() == 1
            let date = bits().map { Date(timeIntervalSinceReferenceDate: Double(bitPattern: $0)) }
            let hasMilliseconds = number() == 1
            let milliseconds = number()
            var headers: [[Evidence.Header]] = []
            for _ in 0..<2 {
                let count = count()
                var list: [Evidence.Header] = []
                for _ in 0..<count {
                    guard let name = text(), let value = text() else { return nil }
                    list.append(Evidence.Header(name, value))
                }
                headers.append(list)
            }
            guard !failed else { return nil }
            return Evidence.Exchange(
                transcript, sentAt: hasDate ? date : nil, milliseconds: hasMilliseconds ? milliseconds : nil,
                requestHeaders: headers[0], responseHeaders: headers[1])
        }
    }
}
