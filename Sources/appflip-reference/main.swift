import AppFlipReference
import Foundation

switch ReferenceArguments.parse(Array(CommandLine.arguments.dropFirst())) {
case .success(let clientID):
    exit(AdapterLoop.serve(LinkHandler(clientID: clientID)))
case .failure(let error):
    let text = (error.message.isEmpty ? "" : "error: \(error.message)\n") + ReferenceArguments.usage + "\n"
    try? FileHandle.standardError.write(contentsOf: Data(text.utf8))
    exit(error.message.isEmpty ? 0 : 2)
}
