import AppFlipBase
import AppFlipModel
import Foundation

/// Reads an apple-app-site-association file and decides whether it lets an app open a link.
///
/// Both forms Apple documents are read: `applinks.details[].components` (iOS 13+; `/` path, `?` query, `exclude`)
/// and the legacy `applinks.details[].paths` (patterns, `NOT ` prefix excludes). Rules apply in order; the first
/// that matches decides. `*` matches any run of characters, `?` one character.
enum SiteAssociation {
    /// - Parameter query: the App Flip link's query items as Google sends them (decoded name and value), for
    ///   `?` rules, which Apple matches against the items' values.
    static func covers(_ body: [UInt8], appID: String, link: String, query items: [(name: String, value: String)]) -> CheckOutcome {
        let outcome = CheckOutcome.init
        guard !appID.isEmpty else { return outcome(false, "no app_id is configured to look for") }
        guard let root = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] else {
            return outcome(false, "the file is not a JSON object")
        }
        guard let applinks = root["applinks"] as? [String: Any], let details = applinks["details"] as? [Any] else {
            return outcome(false, "no applinks.details array")
        }
        let parts = URLParts(link)
        let afterScheme = parts.base.drop { $0 != ":" }.dropFirst(3)
        let path = afterScheme.firstIndex(of: "/").map { String(afterScheme[$0...]) } ?? "/"
        let query = items.map { "\($0.name)=\(FormEncoding.encode($0.value))" }.joined(separator: "&")
        var listed = false
        for case let entry as [String: Any] in details {
            let ids = (entry["appIDs"] as? [String] ?? []) + [entry["appID"] as? String].compactMap { $0 }
            guard ids.contains(appID) else { continue }
            listed = true
            if let components = entry["components"] as? [[String: Any]] {
                for component in components {
                    let pathPattern = component["/"] as? String ?? "*"
                    guard Glob.matches(pathPattern, path) else { continue }
                    if let queryPattern = component["?"], !queryMatches(queryPattern, query: query, items: items) { continue }
                    let excluded = component["exclude"] as? Bool ?? false
                    return outcome(!excluded, excluded ? "an exclude rule matches \(path)" : "component \"/\": \"\(pathPattern)\" matches \(path)")
                }
            } else if let paths = entry["paths"] as? [String] {
                for pattern in paths {
                    let excluded = pattern.hasPrefix("NOT ")
                    let body = excluded ? String(pattern.dropFirst(4)) : pattern
                    guard Glob.matches(body, path) else { continue }
                    return outcome(!excluded, excluded ? "\"\(pattern)\" excludes \(path)" : "paths entry \"\(pattern)\" matches \(path)")
                }
            }
        }
        return outcome(false, listed ? "\(appID) is listed, but no rule covers \(path)" : "\(appID) is not listed in applinks.details")
    }

    /// A `?` rule: a string pattern for the whole query, or a dictionary of item patterns, each matched against
    /// that item's decoded value (a missing item matches only `*`).
    private static func queryMatches(_ pattern: Any, query: String, items: [(name: String, value: String)]) -> Bool {
        if let text = pattern as? String { return Glob.matches(text, query) }
        guard let rules = pattern as? [String: String] else { return true }
        return rules.allSatisfy { name, valuePattern in
            guard let item = items.first(where: { $0.name == name }) else { return valuePattern == "*" }
            return Glob.matches(valuePattern, item.value)
        }
    }
}
