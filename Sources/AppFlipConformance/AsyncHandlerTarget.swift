import AppFlipBase
import AppFlipModel
import AppFlipRunner
import AppFlipSystem
import Foundation

/// A partner's `AppFlipLinkHandler`, called in-process from the runner's worker threads.
///
/// The runner is synchronous on threads of its own; each call starts a task for the async handler and waits for it
/// on that worker thread (never on a thread of the cooperative pool), up to the case's timeout.
struct AsyncHandlerTarget: ExchangeTarget {
    let handler: any AppFlipLinkHandler

    var description: String { "in-process handler \(type(of: handler))" }

    func makeSession() -> any ExchangeSession { AsyncHandlerSession(handler: handler) }
}

final class AsyncHandlerSession: ExchangeSession {
    let handler: any AppFlipLinkHandler

    init(handler: any AppFlipLinkHandler) {
        self.handler = handler
    }

    func exchange(_ request: HandlerRequest, timeout: Double) -> TargetExchange {
        guard let link = URL(string: request.link) else {
            return TargetExchange(
                failure: "Foundation's URL(string:) does not accept this link, so it cannot be handed to an "
                    + "in-process handler; run the case against the app through the adapter contract instead")
        }
        let scenario = request.scenario
        let outcome = Locked<Result<HandlerAnswer, any Error>?>(nil)
        let started = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let handler = self.handler
        let task = Task {
            started.signal()
            let result: Result<HandlerAnswer, any Error>
            do {
                result = .success(try await handler.handle(link, scenario: scenario))
            } catch {
                result = .failure(error)
            }
            outcome.withLock { $0 = result }
            done.signal()
        }
        // The handler's time counts from when the task starts: until then the wait is the concurrency pool's (other
        // work may be blocking its threads), not the handler's, and is bounded separately.
        guard started.wait(timeout: .now() + Self.startLimit) == .success else {
            task.cancel()
            var starved = TargetExchange(
                failure: "the Swift concurrency pool did not start the handler within "
                    + "\(secondsText(Self.startLimit)) s (its threads were blocked by other work); nothing was judged")
            starved.suiteFault = true
            return starved
        }
        guard done.wait(timeout: .now() + timeout) == .success else {
            task.cancel()
            return TargetExchange(failure: "the handler did not answer within \(secondsText(timeout)) s")
        }
        switch outcome.withLock({ $0 }) {
        case .success(.open(let url, let universalLinksOnly)):
            return TargetExchange(
                answer: AppFlipModel.HandlerAnswer(action: .open, url: url.absoluteString, universalLinksOnly: universalLinksOnly),
                rawAnswer: "open \(url.absoluteString)")
        case .success(.decline):
            return TargetExchange(answer: AppFlipModel.HandlerAnswer(action: .decline), rawAnswer: "decline")
        case .failure(let error):
            return TargetExchange(failure: "the handler threw: \(error)")
        case nil:
            return TargetExchange(failure: "the handler ended without an answer")
        }
    }

    func close() {}

    /// How long the handler's task may wait for a thread before the case is a suite error.
    static let startLimit = 300.0
}
