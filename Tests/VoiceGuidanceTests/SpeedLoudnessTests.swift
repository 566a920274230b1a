import Foundation
import Testing
import VoiceGuidance

@Suite struct SpeedLoudnessTests {
    @Test(arguments: [(0.0, 0.0), (30, 0), (50, 0), (80, 3), (110, 6), (130, 6), (250, 6)])
    func theStandardCurveIsFlatThenRisesToSixDecibels(kmh: Double, gain: Double) {
        #expect(abs(SpeedLoudness.standard.gainDB(atSpeed: kmh / 3.6) - gain) < 1e-9)
    }

    @Test func aProfileMayCarryItsOwnCurveAndOtherwiseGetsTheStandardOne() throws {
        let plain = try JSONDecoder().decode(
            VoiceProfile.self,
            from: Data(
                #"{"id":"x","locale":"en-GB","espeakVoice":"en","rate":175,"pitch":50,"volumeDB":-2,"units":"metric","phrases":"en"}"#
                    .utf8))
        #expect(plain.speedLoudness == nil && plain.roadLoudness == .standard)
        #expect(plain.atSpeed(130 / 3.6).volumeDB == 4)
        let quiet = try JSONDecoder().decode(
            VoiceProfile.self,
            from: Data(
                #"{"id":"x","locale":"en-GB","espeakVoice":"en","rate":175,"pitch":50,"volumeDB":0,"units":"metric","phrases":"en","speedLoudness":{"points":[{"kmh":100,"gainDB":3},{"kmh":20,"gainDB":0}]}}"#
                    .utf8))
        #expect(quiet.roadLoudness.points.map(\.kmh) == [20, 100], "sorted by speed")
        #expect(abs(quiet.atSpeed(60 / 3.6).volumeDB - 1.5) < 1e-9)
        #expect(SpeedLoudness.flat.gainDB(atSpeed: 40) == 0)
        #expect(SpeedLoudness.standard.gainDB(atSpeed: .nan) == 0)
    }

    @Test func aCurveOutsideItsLimitsIsACatalogErrorNamingTheFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "voices-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(
            #"{"id":"loud","locale":"en-GB","espeakVoice":"en","rate":175,"pitch":50,"volumeDB":0,"units":"metric","phrases":"en","speedLoudness":{"points":[{"kmh":100,"gainDB":40}]}}"#
                .utf8
        ).write(to: folder.appendingPathComponent("loud.json"))
        let error = #expect(throws: VoiceCatalogError.self) { try VoiceCatalog(directory: folder) }
        #expect("\(error.map { "\($0)" } ?? "")".contains("loud.json: speedLoudness: gain 40.0 dB"))
    }
}
