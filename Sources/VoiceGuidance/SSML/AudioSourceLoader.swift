public import Foundation

/// Reads the WAV file an `<audio src>` names, for the parser.
///
/// Where `src` points: an absolute path or a `file:` URL as written; a relative path against
/// ``directory`` (the CLI sets it to the folder of the SSML file; nil is the current directory).
/// Other URL schemes (`http:`, `s3:`) are not fetched: this runs offline. The file must be a
/// 16-bit PCM WAV of at most ``SSMLParser/Limits/maxAudioBytes`` bytes, mono or stereo (mixed
/// down), at 8–96 kHz. Anything else is a reason, and the parser speaks the element's content.
public struct AudioSourceLoader: Sendable {
    /// The folder a relative `src` is resolved against; nil is the current directory.
    public var directory: URL?

    public init(directory: URL? = nil) {
        self.directory = directory
    }

    /// Sample rates a clip may have, in Hz.
    static let sampleRates = 8_000...96_000

    /// The file `source` names, or nil when it is not a local file.
    func url(for source: String) -> URL? {
        let trimmed = source.trimmingSSMLWhitespace()
        if trimmed.lowercased().hasPrefix("file:") { return URL(string: String(trimmed)) }
        if let colon = trimmed.firstIndex(of: ":"), trimmed[..<colon].count > 1,
            trimmed[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) })
        {
            return nil  // a URL scheme such as http: or s3:
        }
        guard !trimmed.isEmpty else { return nil }
        let path = String(trimmed)
        if path.hasPrefix("/") { return URL(fileURLWithPath: path) }
        let base = directory ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        return base.appendingPathComponent(path)
    }

    /// The clip `source` names, or why it cannot be played.
    func load(_ source: String, maxBytes: Int) -> Result<AudioClip, AudioSourceProblem> {
        guard let named = url(for: source) else {
            return .failure(AudioSourceProblem("'\(source)' is not a local file (only files are played)"))
        }
        let url = named.resolvingSymlinksInPath()
        let path = url.path
        let data: Data
        switch Self.read(path, maxBytes: maxBytes) {
        case .success(let bytes): data = bytes
        case .failure(let problem): return .failure(problem)
        }
        let contents: WAVFile.Contents
        do {
            contents = try WAVFile.decode(data)
        } catch {
            return .failure(AudioSourceProblem("\(path): \(error)"))
        }
        guard Self.sampleRates.contains(contents.sampleRate) else {
            return .failure(AudioSourceProblem("\(path) has a sample rate of \(contents.sampleRate) Hz"))
        }
        guard (1...2).contains(contents.channels) else {
            return .failure(
                AudioSourceProblem("\(path) has \(contents.channels) channels (1 or 2 are played)"))
        }
        return .success(
            AudioClip(
                source: source, samples: Self.mono(contents.samples, channels: contents.channels),
                sampleRate: contents.sampleRate))
    }

    /// The bytes of the regular file at `path`, at most `maxBytes` of them (a larger file, or
    /// one that grows past it while read, is refused; a FIFO or device is never opened).
    static func read(_ path: String, maxBytes: Int) -> Result<Data, AudioSourceProblem> {
        do {
            return .success(try BoundedFile.read(path, limit: maxBytes, regularFilesOnly: true))
        } catch {
            switch error.reason {
            case .folder, .notRegularFile:
                return .failure(AudioSourceProblem("\(path) is not a regular file"))
            default: return .failure(AudioSourceProblem(error.description))
            }
        }
    }

    /// Interleaved stereo mixed down to mono.
    static func mono(_ samples: [Int16], channels: Int) -> [Int16] {
        guard channels == 2 else { return samples }
        var mono: [Int16] = []
        mono.reserveCapacity(samples.count / 2)
        var index = 0
        while index + 1 < samples.count {
            let sum = Int(samples[index]) + Int(samples[index + 1])
            mono.append(Int16(sum / 2))
            index += 2
        }
        return mono
    }
}

/// Why an `<audio src>` cannot be played.
struct AudioSourceProblem: Error, Sendable, Equatable {
    var message: String
    init(_ message: String) { self.message = message }
}
