import AppFlipHTTP
import AppFlipSystem

/// The jar addressed by whole URLs, as the tests write them (the walk passes the origin and target it already has).
extension CookieJar {
    package func store(_ setCookies: [String], from url: String, now: Double = Platform.monotonicSeconds()) {
        guard let (origin, target) = HTTPOrigin.split(url) else { return }
        store(setCookies, origin: origin, target: target, now: now)
    }

    package func header(for url: String, now: Double = Platform.monotonicSeconds()) -> String? {
        guard let (origin, target) = HTTPOrigin.split(url) else { return nil }
        return header(origin: origin, target: target, now: now)
    }
}
