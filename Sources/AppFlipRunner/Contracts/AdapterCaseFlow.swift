/// What a contract keeps alive for one case on one worker (the native app's process and the suite's test
/// authorization server): `StepExecutor.flows` holds it under the contract's key and ends it when the case ends.
package protocol AdapterCaseFlow: AnyObject {
    func end()
}
