import Foundation

/// A `voiceguide` subcommand.
@MainActor protocol Command {
    static var name: String { get }
    static var summary: String { get }
    static var usage: String { get }
    /// Runs with the arguments after the command name; returns the exit status.
    static func run(_ arguments: inout CommandLineArguments) async throws -> Int32
}

/// Every subcommand, in the order `--help` lists them.
let commands: [any Command.Type] = [
    SpeakCommand.self, RenderCommand.self, RenderRouteCommand.self, DriveCommand.self,
    NavigateCommand.self, CheckCommand.self, ExplainCommand.self, VoicesCommand.self, DevicesCommand.self,
    ServeCommand.self, CtlCommand.self,
]

@MainActor func mainUsage() -> String {
    var text =
        "usage: voiceguide COMMAND [OPTIONS] …\n\nSpeaks turn-by-turn navigation prompts with eSpeak NG.\n\ncommands:\n"
    for command in commands {
        text +=
            "  " + command.name.padding(toLength: 14, withPad: " ", startingAt: 0) + command.summary + "\n"
    }
    text += "\n'voiceguide COMMAND --help' shows a command's options."
    return text
}

@MainActor func runMain() async -> Int32 {
    var arguments = Array(CommandLine.arguments.dropFirst())
    guard let name = arguments.first else {
        Console.error(mainUsage())
        return ExitStatus.usage
    }
    arguments.removeFirst()
    if name == "--help" || name == "-h" || name == "help" {
        print(mainUsage())
        return ExitStatus.success
    }
    guard let command = commands.first(where: { $0.name == name }) else {
        Console.error("voiceguide: unknown command '\(name)'\n\n" + mainUsage())
        return ExitStatus.usage
    }
    var parsed = CommandLineArguments(arguments)
    if parsed.flag("--help", "-h") {
        print(command.usage)
        return ExitStatus.success
    }
    do {
        return try await command.run(&parsed)
    } catch let error as UsageError {
        Console.error("voiceguide \(name): \(error.message)\n\n\(command.usage)")
        return ExitStatus.usage
    } catch let error as CommandFailure {
        Console.error("voiceguide \(name): \(error.message)")
        return error.status
    } catch {
        Console.error("voiceguide \(name): \(FileProblem.words(error))")
        return ExitStatus.failure
    }
}

exit(await runMain())
