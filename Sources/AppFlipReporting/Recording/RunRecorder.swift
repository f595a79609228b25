import AppFlipModel

/// One output of a run (the console, the report files, a job summary, an evidence bundle), fed the run's events one
/// at a time, in order (the shape of swift-testing's `Event` and its recorders). A recorder that writes files throws
/// when it cannot; the others never do.
package protocol RunRecorder: Sendable {
    func record(_ event: RunEvent) throws(RecordingFailure)
}

/// Why a recorder could not write its file, in one line.
package struct RecordingFailure: Error, Sendable {
    package var message: String

    package init(message: String) {
        self.message = message
    }

    package init(_ failure: ReportFiles.Failure) {
        message = failure.message
    }
}
