import Foundation
import GuidanceService
import Synchronization
import Testing
import VoiceGuidance
import VoiceGuidanceTesting

/// A `GuidanceService` on a recording synthesizer with the repository's voices.
struct ServiceHarness {
    let synthesizer = RecordingSynthesizer()
    let clock = ManualClock(now: 100)
    let service: GuidanceService
    let voices = VoiceLog()

    init(limits: ProtocolLimits = ProtocolLimits(), readsOwnPositions: Bool = false) throws {
        let library = try VoiceLibrary(directory: TestFixtures.packageRoot().appendingPathComponent("Voices"))
        let voice = try library.profile(id: "en-US")
        let voices = self.voices
        service = GuidanceService(
            synthesizer: synthesizer, library: library, voice: voice,
            configuration: .init(
                limits: limits, programVersion: "test", readsOwnPositions: readsOwnPositions),
            clock: FollowingClock(base: clock),
            setVoice: { profile in voices.append(profile.id) })
    }

    /// Sends one line and returns the reply, parsed.
    func send(_ line: String, from client: (any EventReceiver)? = nil) async throws -> JSONValue {
        let reply = await service.reply(to: Data(line.utf8), from: client)
        #expect(reply.last == 0x0A)
        return try JSONValue.parse(reply.dropLast())
    }

    /// A route request for a fixture of `Tests/Fixtures/directions/`.
    static func routeLine(_ fixture: String = "navigation-ios_routeWithInstructions.json", id: Int = 1)
        -> String
    {
        #"{"id":\#(id),"cmd":"route","path":"\#(TestFixtures.directions(fixture).path)"}"#
    }
}

/// The voices the service switched the synthesizer to.
final class VoiceLog: Sendable {
    private let ids = Mutex<[String]>([])
    func append(_ id: String) { ids.withLock { $0.append(id) } }
    var all: [String] { ids.withLock { $0 } }
}

/// Collects the event lines sent to it.
final class EventCollector: EventReceiver {
    private let lines = Mutex<[JSONValue]>([])

    func deliverEvent(_ line: Data) {
        guard let value = try? JSONValue.parse(line.dropLast()) else { return }
        lines.withLock { $0.append(value) }
    }

    var events: [JSONValue] { lines.withLock { $0 } }

    /// The names of the events, in order.
    var names: [String] {
        events.compactMap { if case .string(let name)? = $0["event"] { name } else { nil } }
    }
}

extension JSONValue {
    /// The string at `key`, or nil.
    func string(_ key: String) -> String? { if case .string(let text)? = self[key] { text } else { nil } }
    /// The number at `key`, or nil.
    func number(_ key: String) -> Double? { if case .number(let value)? = self[key] { value } else { nil } }
    /// `error.code` of a failed reply.
    var errorCode: String? { self["error"]?.string("code") }
    var errorMessage: String? { self["error"]?.string("message") }
}
