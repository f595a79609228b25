import AppFlipHTTP
import Foundation

/// `GET /.well-known/apple-app-site-association`: lists the reference app for the App Flip link path, in both the
/// `components` form and the legacy `paths` form.
struct SiteAssociationEndpoint {
    let configuration: ReferenceServerConfiguration

    func handle(_ request: HTTPRequest) -> HTTPResponse {
        let document: [String: Any] = [
            "applinks": [
                "details": [
                    ["appIDs": [configuration.appID], "components": [["/": configuration.linkPath, "comment": "App Flip"]]],
                    ["appID": configuration.appID, "paths": [configuration.linkPath]],
                ]
            ]
        ]
        let data = (try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])) ?? Data("{}".utf8)
        return HTTPResponse(status: 200, headers: HTTPHeaders([("Content-Type", "application/json")]), body: [UInt8](data))
    }
}
