/// A scope request the partner's server grants only in part, declared in the target configuration
/// (`narrowed_scope: {request: "devices admin", granted: "devices"}`): the token response must then list what was
/// granted (RFC 6749 §3.3, §5.1). Read as `${narrowed_scope_request}` and `${narrowed_scope_granted}` in cases.
package struct NarrowedScope: Sendable, Hashable {
    package var request: String
    package var granted: String

    package init(request: String, granted: String) {
        self.request = request
        self.granted = granted
    }

    /// Why the pair is not a narrowing (the granted scopes must be a non-empty strict subset), or nil.
    package var problem: String? {
        let requested = Set(request.split(separator: " "))
        let kept = Set(granted.split(separator: " "))
        if kept.isEmpty { return "'granted' names no scope" }
        if !kept.isSubset(of: requested) { return "'granted' names scopes that 'request' does not" }
        if kept == requested { return "'granted' is the whole request, so nothing is narrowed" }
        return nil
    }
}
