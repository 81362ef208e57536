import Foundation

// `shop`: the one executable for operators. Exit 0 on success, 1 on a reported failure, 2 on wrong usage.
exit(CommandLineTool.run(Array(CommandLine.arguments.dropFirst())))
