public import Foundation

/// A voice as data: which engine voice, how fast, how high, how loud, and which units it speaks.
///
/// Profiles live as JSON files in `Voices/` (one per file, named `<id>.json`).
public struct VoiceProfile: Sendable, Equatable, Codable, Identifiable {
    /// Stable id used on the command line (`en-US`).
    public var id: String
    /// BCP 47 locale of the language spoken (`en-US`).
    public var locale: String
    /// The eSpeak NG voice name (`en-us`, `gmw/en-US`, `de`).
    public var espeakVoice: String
    /// An eSpeak NG variant (`f3`, `m2`), or nil for the voice's own.
    public var variant: String?
    /// Speaking rate in words per minute (eSpeak's scale; 175 is its default).
    public var rate: Int
    /// Base pitch, 0…99 (eSpeak's scale; 50 is its default).
    public var pitch: Int
    /// Gain in decibels applied to every sample (with a limiter, so nothing clips).
    public var volumeDB: Double
    /// The unit system distances are spoken in.
    public var units: UnitSystem
    /// The phrase book (a file in `Voices/phrases/`, by language) used to build instructions.
    public var phrases: String
    /// How much louder prompts get with speed (`speedLoudness` in the JSON; absent: the
    /// standard curve, 0 dB to 50 km/h rising to +6 dB at 110 km/h).
    public var speedLoudness: SpeedLoudness?
    /// Which prompts get a chime (`chime` in the JSON, `{"tiers": ["final"], "reroute": true}`;
    /// absent: none).
    public var chime: PromptChimes?
    /// The speed gain this voice is spoken with now, in dB (set by `atSpeed` or
    /// `withSpeedGain`, never read from JSON): the renderer makes it through
    /// `roadLoudness.compressor(forGainDB:)`.
    public var speedGainDB: Double = 0

    private enum CodingKeys: String, CodingKey {
        case id, locale, espeakVoice, variant, rate, pitch, volumeDB, units, phrases, speedLoudness, chime
    }

    public init(
        id: String, locale: String, espeakVoice: String, variant: String? = nil, rate: Int = 175,
        pitch: Int = 50, volumeDB: Double = 0, units: UnitSystem = .metric, phrases: String? = nil,
        speedLoudness: SpeedLoudness? = nil, chime: PromptChimes? = nil
    ) {
        self.id = id
        self.locale = locale
        self.espeakVoice = espeakVoice
        self.variant = variant
        self.rate = rate
        self.pitch = pitch
        self.volumeDB = volumeDB
        self.units = units
        self.phrases = phrases ?? String(locale.prefix { $0 != "-" && $0 != "_" }).lowercased()
        self.speedLoudness = speedLoudness
        self.chime = chime
    }

    /// The speed curve in use: the profile's own, or the standard one.
    public var roadLoudness: SpeedLoudness { speedLoudness ?? .standard }

    /// This voice as spoken at `metersPerSecond`: louder by the speed curve's gain (made by
    /// compression and make-up, with a limiter, so nothing clips).
    public func atSpeed(_ metersPerSecond: Double) -> VoiceProfile {
        withSpeedGain(roadLoudness.gainDB(atSpeed: metersPerSecond))
    }

    /// This voice spoken `gainDB` louder for the road (see `atSpeed`).
    public func withSpeedGain(_ gainDB: Double) -> VoiceProfile {
        var voice = self
        let range = SpeedLoudness.gainRange
        voice.speedGainDB = gainDB.isFinite ? min(max(gainDB, range.lowerBound), range.upperBound) : 0
        return voice
    }

    /// The language part of the locale, lower-cased (`en` for `en-US`).
    public var language: String {
        String(locale.prefix { $0 != "-" && $0 != "_" }).lowercased()
    }

    /// A US-English profile with eSpeak's defaults, for tests and as a last resort.
    public static let fallback = VoiceProfile(
        id: "en-US", locale: "en-US", espeakVoice: "en-us", units: .imperial, phrases: "en")
}

/// Metric (meters, kilometers) or imperial (feet, miles).
public enum UnitSystem: String, Sendable, Equatable, Codable, CaseIterable {
    case metric, imperial
}

/// The voice profiles found in a `Voices/` folder.
public struct VoiceCatalog: Sendable {
    /// The folder the profiles were read from.
    public let directory: URL
    /// Profiles by id, in id order.
    public let profiles: [VoiceProfile]

    /// Reads every `*.json` file directly inside `directory` as a profile.
    ///
    /// - Throws: `VoiceCatalogError` naming the file and field that is wrong.
    public init(directory: URL) throws {
        self.directory = directory
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw VoiceCatalogError(
                message: "cannot read the voices folder \(directory.path): \(error.localizedDescription)")
        }
        var profiles: [VoiceProfile] = []
        for name in names.sorted() where name.hasSuffix(".json") {
            let url = directory.appendingPathComponent(name)
            do {
                let data = try Data(contentsOf: url)
                let profile = try JSONDecoder().decode(VoiceProfile.self, from: data)
                if let problem = profile.speedLoudness?.problem {
                    throw VoiceCatalogError(message: "\(url.path): speedLoudness: \(problem)")
                }
                profiles.append(profile)
            } catch let error as VoiceCatalogError {
                throw error
            } catch let error as DecodingError {
                throw VoiceCatalogError(message: "\(url.path): \(describe(error))")
            } catch {
                throw VoiceCatalogError(message: "\(url.path): \(error.localizedDescription)")
            }
        }
        self.profiles = profiles.sorted { $0.id < $1.id }
    }

    /// The profile with this id (case-insensitive).
    ///
    /// - Throws: `VoiceCatalogError` listing the known ids when there is none.
    public func profile(id: String) throws -> VoiceProfile {
        if let found = profiles.first(where: { $0.id.lowercased() == id.lowercased() }) {
            return found
        }
        let known = profiles.map(\.id).joined(separator: ", ")
        throw VoiceCatalogError(message: "unknown voice '\(id)'; known voices: \(known)")
    }

    /// The folder `Voices/` is looked for in, first match wins: `$VOICEGUIDE_VOICES`, then
    /// `Voices/` in the current directory and in each parent of the running executable.
    public static func defaultDirectory(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        executable: URL? = Bundle.main.executableURL
    ) -> URL? {
        if let path = environment["VOICEGUIDE_VOICES"], !path.isEmpty {
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        var candidates = [URL(fileURLWithPath: FileManager.default.currentDirectoryPath)]
        if var folder = executable?.resolvingSymlinksInPath().deletingLastPathComponent() {
            for _ in 0..<6 {
                candidates.append(folder)
                folder = folder.deletingLastPathComponent()
            }
        }
        for folder in candidates {
            let voices = folder.appendingPathComponent("Voices", isDirectory: true)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: voices.path, isDirectory: &isDirectory),
                isDirectory.boolValue
            {
                return voices
            }
        }
        return nil
    }
}

/// A voices folder or profile that cannot be used.
public struct VoiceCatalogError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

/// Describes a decoding error by the path to the field, for messages like `legs[0].steps[3].distance`.
public func describe(_ error: DecodingError) -> String {
    /// What a JSON value of a Swift type is called: "a number", "an object".
    func words(for type: Any.Type) -> String {
        switch type {
        case is Double.Type, is Float.Type, is Int.Type, is Int64.Type, is Int32.Type, is UInt.Type:
            "a number"
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is [String: Any].Type, is NSDictionary.Type: "an object"
        case is [Any].Type, is NSArray.Type: "an array"
        default: "a value of another kind"
        }
    }
    /// ", found a string" from Foundation's "Expected to decode … but found a string instead."
    func found(in description: String) -> String {
        guard let start = description.range(of: "found "), let end = description.range(of: " instead"),
            start.upperBound <= end.lowerBound
        else { return "" }
        return ", found " + description[start.upperBound..<end.lowerBound]
    }
    func path(_ keys: [any CodingKey]) -> String {
        var out = ""
        for key in keys {
            if let index = key.intValue {
                out += "[\(index)]"
            } else {
                out += out.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return out.isEmpty ? "(top level)" : out
    }
    switch error {
    case .typeMismatch(let type, let context):
        return
            "\(path(context.codingPath)): expected \(words(for: type))\(found(in: context.debugDescription))"
    case .valueNotFound(let type, let context):
        return "\(path(context.codingPath)): expected \(words(for: type)), found null"
    case .keyNotFound(let key, let context):
        return "\(path(context.codingPath + [key])): required field is missing"
    case .dataCorrupted(let context):
        if context.codingPath.isEmpty, context.underlyingError == nil {
            return "(top level): a number does not fit its field, or the data is not valid JSON"
        }
        return "\(path(context.codingPath)): \(context.debugDescription)"
    @unknown default:
        return "\(error)"
    }
}
