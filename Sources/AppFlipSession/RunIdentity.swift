import AppFlipBase
import AppFlipSystem
import Foundation

/// Which build of the suite ran, and where: what a reviewer needs besides the suite's version to trust a report.
package enum RunIdentity {
    /// The operating system, its version, and the processor.
    package static let platform = "\(Platform.names.system) \(ProcessInfo.processInfo.operatingSystemVersionString), \(Platform.names.processor)"

    /// The Swift compiler the suite was built with (to its minor version).
    package static let toolchain: String = {
        #if compiler(>=6.4)
            "Swift 6.4 or later"
        #elseif compiler(>=6.3)
            "Swift 6.3"
        #elseif compiler(>=6.2)
            "Swift 6.2"
        #elseif compiler(>=6.1)
            "Swift 6.1"
        #else
            "Swift 6.0"
        #endif
    }()

    /// The SHA-256 of the running executable, worked out once a process on a thread of its own, started by the first
    /// run that asks (a run asks once its cases have run; a second run in the same process, as in-process tests make,
    /// reads it no more). Nil when the file cannot be read.
    package static let executableDigest = ExecutableDigest()

    package final class ExecutableDigest: Sendable {
        private let done = DispatchSemaphore(value: 0)
        private let digest = Locked<String?>(nil)

        fileprivate init() {
            let thread = Thread { [self] in
                if let path = Bundle.main.executablePath, case .success(let value) = FileDigest.sha256(atPath: path) {
                    digest.withLock { $0 = value }
                }
                done.signal()
            }
            thread.start()
        }

        /// Waits for the digest.
        package func value() -> String? {
            done.wait()
            done.signal()
            return digest.withLock { $0 }
        }
    }
}
