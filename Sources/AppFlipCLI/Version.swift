/// The suite's version, recorded in every report's provenance.
public enum SuiteVersion {
    public static let current = "0.1.0"
}
