/// The case files' native-client variables: `${native_client_id}`, `${native_loopback_uri}`,
/// `${native_loopback_uri_other_port}`, `${native_scheme_uri}`.
extension NativeClient {
    static let variableNames = ["native_client_id", "native_loopback_uri", "native_loopback_uri_other_port", "native_scheme_uri"]

    /// The value of the variable `name` (one of `variableNames`); empty where the client has none.
    func variable(_ name: String) -> String {
        switch name {
        case "native_client_id": id
        case "native_loopback_uri": loopbackURI ?? ""
        case "native_loopback_uri_other_port": loopbackURIWithOtherPort ?? ""
        default: schemeURI ?? ""
        }
    }
}
