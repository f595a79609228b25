import AppFlipCLI
import Foundation

Command.containDescendants()
Command.configureRedaction(for: Array(CommandLine.arguments.dropFirst()))
exit(Command.main(Array(CommandLine.arguments.dropFirst())))
