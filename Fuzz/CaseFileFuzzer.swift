// libFuzzer entry point for the case-file parser and loader (built by Fuzz/run.sh, not by SwiftPM).
// Contract: no input crashes or hangs; every rejection carries a location inside the input.

@_cdecl("LLVMFuzzerTestOneInput")
public func caseFileFuzzer(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var loader = CaseLoader(catalog: nil)
    _ = loader.load(bytes: bytes, file: "fuzz.case", group: "fuzz")
    let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).count
    for diagnostic in loader.diagnostics where diagnostic.location.line < 1 || diagnostic.location.line > lines + 1 {
        fatalError("diagnostic outside the input: \(diagnostic)")
    }
    let text = String(decoding: bytes, as: UTF8.self)
    _ = URLParts(text).parameters
    _ = Redaction.redact(url: text)
    return 0
}
