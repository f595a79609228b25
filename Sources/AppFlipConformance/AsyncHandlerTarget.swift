import AppFlipModel
import AppFlipRunner
import Foundation

/// A partner's `AppFlipLinkHandler`, called in-process from the runner's worker threads.
///
/// The runner is synchronous on threads of its own; each call starts a task for the async handler and waits for it
/// on that worker thread (never on a thread of the cooperative pool), up to the case's timeout.
struct AsyncHandlerTarget: LinkHandlerTarget {
    let handler: any AppFlipLinkHandler

    var description: String { "in-process handler \(type(of: handler))" }

    func makeSession() -> any LinkHandlerSession { AsyncHandlerSession(handler: handler) }
}

final class AsyncHandlerSession: LinkHandlerSession {
    let handler: any AppFlipLinkHandler

    init(handler: any AppFlipLinkHandler) {
        self.handler = handler
    }

    func exchange(_ request: HandlerRequest, timeout: Double) -> TargetExchange {
        guard let link = URL(string: request.link) else {
            return TargetExchange(failure: "Foundation's URL(string:) does not accept this link, so it cannot be handed to an "
                                  + "in-process handler; run the case against the app through the adapter contract instead")
        }
        let scenario = request.scenario
        let outcome = Locked<Result<HandlerAnswer, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let handler = self.handler
        let task = Task {
            let result: Result<HandlerAnswer, any Error>
            do {
                result = .success(try await handler.handle(link, scenario: scenario))
            } catch {
                result = .failure(error)
            }
            outcome.withLock { $0 = result }
            done.signal()
        }
        guard done.wait(timeout: .now() + timeout) == .success else {
            task.cancel()
            return TargetExchange(failure: "the handler did not answer within \(secondsText(timeout)) s")
        }
        switch outcome.withLock({ $0 }) {
        case .success(.open(let url, let universalLinksOnly)):
            return TargetExchange(answer: AppFlipModel.HandlerAnswer(action: .open, url: url.absoluteString, universalLinksOnly: universalLinksOnly),
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
}
