/// An object that owns an OpenSSL context (`SSL_CTX`) and frees it when it goes: what a connection is made from.
package protocol TLSContextOwner: AnyObject {
    #if canImport(COpenSSL)
        var context: OpaquePointer { get }
    #endif
}
