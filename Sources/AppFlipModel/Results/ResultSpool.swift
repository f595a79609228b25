import AppFlipBase
import Foundation

/// Where one run's recorded results keep their texts: a temporary file, removed from its directory the moment it is
/// made (nothing is left behind, whatever ends the process; no other process can open it by name), written as each
/// case is recorded and read back by the reports. A recorded result keeps in memory only what every report counts
/// (its case, verdict, and each check's requirement and verdict); its evidence and its checks' texts come from here
/// when a report writes them (`CaseResult.spool(into:)`), so a run's memory does not grow with its cases' texts.
///
/// Belongs to one run (`Runner.run` makes it); the results that use it keep it open. Appends are buffered (64 KiB)
/// under the lock; reads of what is written are positional (`pread`) and wait for nothing but the lookup of where
/// the buffer starts. A file that cannot take more (a full disk) is not an error: `append` says no, and the result
/// stays in memory as before.
package final class ResultSpool: Sendable {
    private let fd: Int32
    private let state = Locked(State())
    /// The requirements recorded checks judged, each once, numbered, and each recorded check's outline as one word.
    private let references = Locked(References())
    private static let flushSize = 1 << 16

    /// Bytes not yet in the file, where they start in it, and whether the file has refused a write.
    private struct State {
        var buffer: [UInt8] = []
        var flushed = 0
        var refused = false
    }

    /// A spool over `fd`, which it closes (tests give one that refuses writes).
    init(fd: Int32) {
        self.fd = fd
    }

    deinit { close(fd) }

    /// A new spool in `directory`, by default the temporary one (`$TMPDIR`, else `/tmp`), or nil when none can be made
    /// there: the run then keeps its results in memory.
    package static func temporary(in directory: String? = nil) -> ResultSpool? {
        let environment = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 }
        let directory = directory ?? environment ?? "/tmp"
        for _ in 0..<8 {
            let path = "\(directory)/.appflip-results.\(getpid())-" + String(UInt64.random(in: .min ... .max), radix: 36)
            // Created here, never an existing file or a link; readable by this user alone; closed in every child.
            let fd = open(path, O_CREAT | O_EXCL | O_RDWR | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if fd >= 0 {
                unlink(path)
                return ResultSpool(fd: fd)
            }
            if errno != EEXIST { return nil }
        }
        return nil
    }

    /// Appends `bytes`; where they start, or nil when the file refused an earlier write (the caller keeps its
    /// result in memory). What is buffered when a write fails stays in the buffer: nothing appended is ever lost.
    func append(_ bytes: [UInt8]) -> Int? {
        state.withLock { state -> Int? in
            guard !state.refused else { return nil }
            let offset = state.flushed + state.buffer.count
            state.buffer.append(contentsOf: bytes)
            if state.buffer.count >= Self.flushSize {
                if writeAll(state.buffer, at: state.flushed) {
                    state.flushed += state.buffer.count
                    state.buffer.removeAll(keepingCapacity: true)
                } else {
                    state.refused = true
                }
            }
            return offset
        }
    }

    /// The `length` bytes appended at `offset`, or nil when the file cannot be read (an I/O error).
    func read(at offset: Int, length: Int) -> [UInt8]? {
        guard length > 0 else { return [] }
        let buffered = state.withLock { state -> [UInt8]? in
            guard offset >= state.flushed else { return nil }
            let start = offset - state.flushed
            return Array(state.buffer[start..<start + length])
        }
        if let buffered { return buffered }
        var bytes = [UInt8](repeating: 0, count: length)
        var done = 0
        while done < length {
            let count = bytes[done...].withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(offset + done)) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return nil }
            done += count
        }
        return bytes
    }

    /// Keeps what `checks` leave in memory: their outlines, one word each (the requirement's number in 24 bits, the
    /// verdict and whether the check applied) in one array for the whole run, so a recorded result holds where its
    /// words start and not an array of its own; and each check's expected and seen text, in that order, as the number
    /// of a text the run's results share (`TextTable`), or nil for a text written out in full. Nil when the run has
    /// judged more requirements than 24 bits number, or kept more words than 32 bits count (the checks then stay with
    /// the result).
    func keep(_ checks: [CheckResult]) -> (span: OutlineSpan, texts: [UInt32?])? {
        references.withLock { references -> (span: OutlineSpan, texts: [UInt32?])? in
            guard references.list.count + checks.count < 1 << 24, let start = UInt32(exactly: references.words.count),
                let count = UInt32(exactly: checks.count), UInt32.max - start >= count
            else { return nil }
            var texts: [UInt32?] = []
            texts.reserveCapacity(checks.count * 2)
            for (position, check) in checks.enumerated() {
                references.words.append(
                    references.number(check.requirement, at: position)
                        | UInt32(Self.verdicts.firstIndex(of: check.verdict) ?? 0) << 24 | (check.isApplicable ? 1 << 28 : 0))
                texts.append(references.shared.keep(check.expected))
                texts.append(references.shared.keep(check.seenText))
            }
            return (OutlineSpan(start: start, count: count), texts)
        }
    }

    /// `body` given the texts the run's results share, by number (`keep(_:)`).
    func withSharedTexts<Value>(_ body: ([String]) -> Value) -> Value {
        references.withLock { body($0.shared.texts) }
    }

    /// Where a result's outlines are among the words `keep(_:)` kept.
    struct OutlineSpan: Sendable, Hashable {
        var start: UInt32
        var count: UInt32
    }

    /// The outlines `keep(_:)` of this spool kept at `span`.
    func outlines(_ span: OutlineSpan) -> [CheckOutline] {
        references.withLock { references in
            references.words[Int(span.start)..<Int(span.start) + Int(span.count)].map { word in
                CheckOutline(
                    requirement: references.list[Int(word & 0xFF_FFFF)], verdict: Self.verdicts[Int(word >> 24 & 0xF)],
                    isApplicable: word & 1 << 28 != 0)
            }
        }
    }

    private static let verdicts = Verdict.allCases

    /// Requirements by number and numbers by requirement, every recorded check's outline as a word, and the texts
    /// the checks share.
    private struct References {
        var list: [RequirementReference] = []
        var numbers: [RequirementReference: UInt32] = [:]
        var words: [UInt32] = []
        var shared = TextTable()
        /// The numbers of the last kept result's checks, by position: the next result of a case like it names the same
        /// requirements in the same order, and a requirement found there is compared, not hashed (an ID is short
        /// enough to be compared in place).
        var lastNumbers: [UInt32] = []

        /// The number of `reference`, the check at `position` of its result; numbered now if it is new.
        mutating func number(_ reference: RequirementReference, at position: Int) -> UInt32 {
            if position < lastNumbers.count, list[Int(lastNumbers[position])] == reference { return lastNumbers[position] }
            let number = number(reference)
            if position < lastNumbers.count {
                lastNumbers[position] = number
            } else if position == lastNumbers.count {
                lastNumbers.append(number)
            }
            return number
        }

        mutating func number(_ reference: RequirementReference) -> UInt32 {
            if let number = numbers[reference] { return number }
            let number = UInt32(list.count)
            list.append(reference)
            numbers[reference] = number
            return number
        }
    }

    /// Writes `bytes` at `offset` whole; false on a short write or an error (a full disk).
    private func writeAll(_ bytes: [UInt8], at offset: Int) -> Bool {
        var done = 0
        while done < bytes.count {
            let count = bytes[done...].withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, off_t(offset + done)) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            done += count
        }
        return true
    }
}
