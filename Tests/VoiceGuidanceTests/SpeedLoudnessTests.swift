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
        #expect(plain.atSpeed(130 / 3.6).speedGainDB == 6 && plain.atSpeed(130 / 3.6).volumeDB == -2)
        #expect(plain.chime == nil, "no chime unless the profile asks")
        let quiet = try JSONDecoder().decode(
            VoiceProfile.self,
            from: Data(
                #"{"id":"x","locale":"en-GB","espeakVoice":"en","rate":175,"pitch":50,"volumeDB":0,"units":"metric","phrases":"en","speedLoudness":{"points":[{"kmh":100,"gainDB":3},{"kmh":20,"gainDB":0}]}}"#
                    .utf8))
        #expect(quiet.roadLoudness.points.map(\.kmh) == [20, 100], "sorted by speed")
        #expect(abs(quiet.atSpeed(60 / 3.6).speedGainDB - 1.5) < 1e-9)
        #expect(quiet.roadLoudness.compression == .standard)
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

    /// The gain is made by a compressor whose ratio grows with it and whose make-up brings speech
    /// at the reference level back, plus the gain; 0 dB leaves the voice alone.
    @Test func theSpeedGainIsACompressorGrowingWithTheGain() throws {
        let curve = SpeedLoudness.standard
        #expect(curve.compressor(forGainDB: 0) == nil)
        let six = try #require(curve.compressor(forGainDB: 6))
        let three = try #require(curve.compressor(forGainDB: 3))
        #expect(abs(six.ratio - 3) < 1e-9 && abs(three.ratio - 2) < 1e-9)
        #expect(abs(six.makeupGainDB - 6 * curve.compression.makeupPerDB) < 1e-9)
        #expect(six.makeupGainDB > three.makeupGainDB)
        #expect(abs(six.ceilingDB - -0.3) < 1e-9)
        let cut = try #require(curve.compressor(forGainDB: -4))
        #expect(cut.ratio == 1 && abs(cut.makeupGainDB - -4) < 1e-9)
    }

    @Test func aProfileMayNameItsChimesAndItsCompression() throws {
        let profile = try JSONDecoder().decode(
            VoiceProfile.self,
            from: Data(
                #"{"id":"x","locale":"en-GB","espeakVoice":"en","rate":175,"pitch":50,"volumeDB":0,"units":"metric","phrases":"en","chime":{"tiers":["final","arrival"],"reroute":true},"speedLoudness":{"points":[{"kmh":50,"gainDB":0}],"compression":{"thresholdDB":-24,"ratioPerDB":0.5,"makeupPerDB":2,"kneeWidthDB":6,"attack":0.01,"release":0.1,"ceilingDB":-1,"limiterRelease":0.02}}}"#
                    .utf8))
        #expect(profile.chime == PromptChimes(tiers: [.final, .arrival], reroute: true))
        #expect(profile.roadLoudness.compression.thresholdDB == -24)
        #expect(PromptChimes(choice: "final", reroute: false)?.tiers == [.final, .arrival])
        #expect(PromptChimes(choice: "loud", reroute: false) == nil)
    }

    @Test func aCompressionOutsideItsLimitsIsRefused() {
        var curve = SpeedLoudness.standard
        curve.compression.ratioPerDB = -1
        #expect(curve.problem?.contains("ratioPerDB") == true)
        curve = .standard
        curve.compression.ceilingDB = 3
        #expect(curve.problem?.contains("ceilingDB") == true)
        #expect(SpeedLoudness.standard.problem == nil)
    }
}
