import AppFlipCLI
import Foundation

Command.containDescendants()
exit(Command.main(Array(CommandLine.arguments.dropFirst())))
