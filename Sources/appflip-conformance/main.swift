import AppFlipCLI
import Foundation

exit(Command.main(Array(CommandLine.arguments.dropFirst())))
