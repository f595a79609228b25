/// A check kind's row in the format documentation.
package struct CheckDocumentation: Sendable {
    package enum Section: Sendable {
        /// "### `expect`": the link handler's answer, or a redirect's Location.
        case answer
        /// The HTTP response table under "Steps".
        case response
        /// The native-client table: the app's answers and the test authorization server's requests.
        case native
        /// The activity table: the result the partner's activity gave back.
        case activity
    }

    package var section: Section
    package var values: String
    package var holdsWhen: String

    package init(_ section: Section, values: String, holdsWhen: String) {
        self.section = section
        self.values = values
        self.holdsWhen = holdsWhen
    }
}
