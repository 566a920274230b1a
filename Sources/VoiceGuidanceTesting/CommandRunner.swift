public import Foundation
import VoiceGuidance

/// Runs the built `voiceguide` binary for CLI tests and captures what it prints.
public struct CommandRunner: Sendable {
    /// The result of one run.
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// The executable: `voiceguide` beside the test bundle, else in `.build/debug/`.
    public let executable: URL

    public init(product: String = "voiceguide") throws {
        var candidates: [URL] = []
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = runner.deletingLastPathComponent()
        for _ in 0..<4 {
            candidates.append(folder.appendingPathComponent(product))
            folder = folder.deletingLastPathComponent()
        }
        candidates.append(TestFixtures.packageRoot().appendingPathComponent(".build/debug/\(product)"))
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) })
        else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: product])
        }
        executable = found
    }

    /// Starts the binary with `arguments` and returns at once (output discarded), for tests that
    /// interrupt it.
    public func launch(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = TestFixtures.packageRoot()
        process.environment = environment([:])
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Runs the binary with `arguments` (output discarded) and measures its peak memory.
    public func measure(_ arguments: [String]) throws -> MeasuredRun {
        try MeasuredRun.run(executable, arguments, environment: environment([:]))
    }

    private func environment(_ extra: [String: String]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["VOICEGUIDE_VOICES"] = TestFixtures.packageRoot().appendingPathComponent("Voices").path
        // The ALSA tests of this process point ALSA at a test configuration; a user's program
        // sees the system's own.
        env["ALSA_CONFIG_PATH"] = nil
        for (key, value) in extra { env[key] = value }
        return env
    }

    /// Runs the binary with `arguments`, feeding `input` on stdin, in `directory` (default: the package root).
    public func run(
        _ arguments: [String], input: Data? = nil, directory: URL? = nil, environment: [String: String] = [:]
    ) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory ?? TestFixtures.packageRoot()
        process.environment = self.environment(environment)
        let out = Pipe()
        let err = Pipe()
        let stdin = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(input) }
        try stdin.fileHandleForWriting.close()
        // Read stderr on another thread while stdout is read here, so a full pipe never blocks it.
        let errData = Locked(Data())
        let done = DispatchSemaphore(value: 0)
        let errHandle = err.fileHandleForReading
        Thread.detachNewThread {
            let data = errHandle.readDataToEndOfFile()
            errData.withLock { $0 = data }
            done.signal()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        done.wait()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData.withLock { $0 }, as: UTF8.self))
    }

    /// A fresh temporary folder, removed by the caller.
    public static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "voiceguide-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
