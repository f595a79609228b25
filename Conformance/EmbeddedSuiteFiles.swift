// This file makes Conformance/ a Swift target (AppFlipSuiteFiles): SwiftPM then follows every case file and the
// catalog here, and the EmbedSuite build-tool plugin compiles them into the target byte for byte (its generated
// file adds `all`). A binary built from this package, or a package depending on it, carries the suite and reads
// no files to find it. Nothing to edit here: change the case files and the catalog.

/// The suite's files as compiled in; `AppFlipSuite.BuiltInSuite` loads them.
package enum EmbeddedSuiteFiles {}
