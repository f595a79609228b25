import AppFlipBase
import AppFlipHTTP
import AppFlipModel
import AppFlipReporting
import AppFlipRunner
import AppFlipSystem
import Foundation

/// Turns SIGINT, SIGTERM, SIGHUP and SIGQUIT into an orderly stop: no new case starts, every handler process group
/// is killed at once, and the run writes its reports marked incomplete. A second signal stops at once (exit 130,
/// no reports): the way out when writing the reports itself hangs.
///
/// Started and stopped by the command on its own thread (the signal sources are not `Sendable`); what the run's
/// threads read is `received`.
final class Interruption {
    /// The signal that interrupted the run, if any, readable from any thread.
    let received = Locked<Int32?>(nil)
    private var sources: [any DispatchSourceSignal] = []

    /// The signal that interrupted the run, if any.
    var signal: Int32? { received.withLock { $0 } }

    /// Starts listening; call `stop()` when the run is over.
    func start(console: Console) {
        Platform.unblockTerminationSignals()
        for number in Platform.terminationSignals {
            Foundation.signal(number, SIG_IGN)  // handled by the dispatch source below instead
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [received] in
                let first = received.withLock { received -> Bool in
                    defer { if received == nil { received = number } }
                    return received == nil
                }
                ProcessGroups.killAll()
                HTTPClient.abortAll()
                if first {
                    console.err(
                        "interrupted by \(Platform.signalName(number)): stopping; the reports will be marked incomplete "
                            + "(a second signal stops at once, without reports)")
                } else {
                    console.err("interrupted again by \(Platform.signalName(number)): stopping now, without reports")
                    // Other threads still run (workers, the report writer): `exit` would destroy what they use under
                    // them, and a crash then ends the process with SIGSEGV, not 130.
                    Platform.exitImmediately(ExitStatus.interrupted.rawValue)
                }
            }
            source.resume()
            sources.append(source)
        }
    }

    func stop() {
        for source in sources { source.cancel() }
        sources = []
        for number in Platform.terminationSignals { Foundation.signal(number, SIG_DFL) }
    }
}
