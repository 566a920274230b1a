import Foundation
import GuidanceService
import Testing
import VoiceGuidance
import VoiceGuidanceTesting

/// `serve --chime`: the service's controller delivers prompts with the chimes it was configured
/// with, and with the voice's speed gain for the speed in the progress.
@Suite struct PromptSoundServiceTests {
    @Test func theServiceChimesBeforeFinalsAndRaisesTheVoiceWithSpeed() async throws {
        let library = try VoiceLibrary(directory: TestFixtures.packageRoot().appendingPathComponent("Voices"))
        let voice = try library.profile(id: "en-US")
        let synthesizer = RecordingSynthesizer()
        var configuration = GuidanceService.Configuration(programVersion: "test")
        configuration.chimes = .finals
        let service = GuidanceService(
            synthesizer: synthesizer, library: library, voice: voice, configuration: configuration,
            clock: FollowingClock(base: ManualClock(now: 100)), setVoice: { _ in })
        let route = ServiceHarness.routeLine(GuidanceServiceTests.fixture)
        _ = await service.reply(to: Data(route.utf8), from: nil)
        for line in try GuidanceServiceTests.driveLines(speed: 25) {
            _ = await service.reply(to: Data(line.utf8), from: nil)
        }
        await service.waitUntilIdle()
        let spoken = synthesizer.spokenInstructions
        #expect(spoken.count >= 5)
        let atNinety = SpeedLoudness.standard.gainDB(atSpeed: 25)
        #expect(spoken.allSatisfy { abs($0.delivery.speedGainDB - atNinety) < 1e-9 }, "+4 dB at 90 km/h")
        #expect(spoken.contains { $0.delivery.chime == .prompt })
        #expect(spoken.contains { $0.delivery.chime == nil }, "approaches have none")
    }
}
