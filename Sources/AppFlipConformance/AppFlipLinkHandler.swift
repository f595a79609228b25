import AppFlipModel
import Foundation

/// A partner's App Flip link handling, called in-process: the Swift logic an iOS app runs when Google's app opens
/// its universal link, without the app around it.
///
/// The suite calls `handle(_:scenario:)` once per case with the link as Google's app would deliver it, and judges
/// the answer: the flip URL the app would open (with `code` and `state`, or `error`), or that it declined the link.
///
/// ```swift
/// struct MyHandler: AppFlipLinkHandler {
///     func handle(_ link: URL, scenario: Scenario) async throws -> HandlerAnswer {
///         guard let request = FlipRequest(link) else { return .decline }
///         return .open(request.result(for: scenario))
///     }
/// }
/// ```
public protocol AppFlipLinkHandler: Sendable {
    /// Handles one incoming link.
    /// - Parameters:
    ///   - link: the universal link, exactly as it would reach the app.
    ///   - scenario: what the simulated user does if the handler gets as far as asking for consent.
    /// - Returns: what the app would do. Throwing is a target error for the case (not a conformance failure).
    func handle(_ link: URL, scenario: Scenario) async throws -> HandlerAnswer
}

/// What the simulated user (or their account) does when the handler asks for consent: `consent` (answer with a
/// `code`), `deny` (`access_denied`), `cancel` (a recoverable failure, `cancelled`), `disabledAccount` (an
/// unrecoverable one, `unrecoverable`), `secondUser` (a second user approves; the HTTP profiles only).
public typealias Scenario = AppFlipModel.Scenario

/// What the app does with a link.
public enum HandlerAnswer: Sendable, Hashable {
    /// The app opens `url` (Google's flip URL with the result). `universalLinksOnly` says whether it opens it with
    /// `.universalLinksOnly` (nil: not said).
    case open(URL, universalLinksOnly: Bool? = nil)
    /// The app does not handle the link and opens nothing.
    case decline
}
