/// ASCII letters lower-cased byte by byte, for the model's byte readers (HTML names, parameter names, escapes): what
/// they compare is ASCII, and reading it this way lower-cases no copy. (AppFlipHTTP, which the model does not
/// import, has its own for header names and schemes.)
extension UInt8 {
    /// The byte with an ASCII capital letter made small; any other byte as it is.
    var asciiLowercased: UInt8 { (0x41...0x5A).contains(self) ? self | 0x20 : self }
}
