import ALSABackend
import ESpeakBackend
import Foundation
import VoiceGuidance

/// `voiceguide drive`: simulate a drive over a route and show when each prompt is spoken.
enum DriveCommand: Command {
    static let name = "drive"
    static let summary = "simulate a drive over a route; print the prompt timeline"
    static let usage = """
        usage: voiceguide drive ROUTE.json [--speed 50km/h|route] [--gps-noise METERS] [--seed N]
                                [--voice ID] [--units metric|imperial] [--no-server-instructions]
                                [--play [--device NAME] [--speedup N]] [--output drive.wav] [--json]

        Drives the route on a simulated clock (progress updates once a second; the vehicle leaves
        at time 0 and never stops) and runs the announcement scheduler with prompt lengths from
        the real eSpeak NG renderer. Prints a timeline and a summary.

          --speed S          constant speed with its unit (50km/h, 30mph, 14m/s) or 'route'
                             (each step's own distance/duration); default route
          --gps-noise M      GPS error in meters (95% of fixes within M), seeded by --seed (default 1)
          --voice ID         voice profile (default en-US); its phrase book words built prompts
          --units U          metric or imperial (default: the voice's)
          --no-server-instructions   ignore the route's voiceInstructions; build every prompt
          --play             play the prompts through ALSA at their times (--speedup N: N× faster)
          --output FILE      write the drive's audio, each prompt at its time, to a WAV file
          --json             one JSON object per line: each prompt, then the summary

        Exit status: 0 done, 1 the route or voice cannot be used, 64 usage, 69 audio device failed.
        """

    static func run(_ arguments: inout CommandLineArguments) async throws -> Int32 {
        let catalog = try Voices.catalog()
        var voice = try Voices.profile(&arguments)
        let (speed, speedWarning) = try parseSpeed(try arguments.option("--speed") ?? "route")
        let noise = try arguments.number("--gps-noise", in: 0...1_000) ?? 0
        let seed = UInt64(try arguments.number("--seed", in: 0...1e15) ?? 1)
        if let units = try arguments.option("--units") {
            guard let system = UnitSystem(rawValue: units) else {
                throw UsageError("--units must be metric or imperial, not '\(units)'")
            }
            voice.units = system
        }
        let stripServer = arguments.flag("--no-server-instructions")
        let play = arguments.flag("--play")
        let device = try arguments.option("--device") ?? "default"
        let speedup = try arguments.number("--speedup", in: 0.1...1_000) ?? 1
        let output = try arguments.option("--output", "-o")
        let json = arguments.flag("--json")
        let files = try arguments.positionals()
        guard files.count == 1 else { throw UsageError("give one ROUTE.json") }

        if let speedWarning { Console.error(speedWarning) }
        let route = try RouteLoading.load(files[0])
        let driveTime = DriveMotion(route: route, speed: speed).totalTime
        let longest = RouteLimits().maximumDuration
        guard driveTime <= longest else {
            throw CommandFailure(
                "at this speed the drive takes \(Int(saturating: driveTime / 86_400)) days; the limit is \(Int(longest / 86_400)) days"
            )
        }
        let book: PhraseBook
        do {
            book = try PhraseBook.load(
                directory: catalog.directory.appendingPathComponent("phrases"), language: voice.phrases)
        } catch {
            throw CommandFailure("\(error)")
        }
        let audio = PromptAudio(renderer: try Engines.espeak(), voice: voice)
        let simulator = DriveSimulator(
            route: route, phrases: PhraseBuilder(book: book, units: voice.units), speed: speed,
            gpsNoise: noise, seed: seed, usesServerInstructions: !stripServer,
            durationOf: { audio.duration(of: $0) })
        let timeline = simulator.run()

        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            for prompt in timeline.prompts {
                print(String(decoding: try encoder.encode(prompt), as: UTF8.self))
            }
            print(String(decoding: try encoder.encode(timeline.summary), as: UTF8.self))
        } else {
            printTable(timeline, route: route)
        }
        if let output {
            try writeAudio(timeline, audio: audio, to: URL(fileURLWithPath: output))
            if !json { print("wrote \(output)") }
        }
        if play {
            try await playTimeline(timeline, audio: audio, device: device, speedup: speedup, quiet: json)
        }
        return ExitStatus.success
    }

    /// `50km/h`, `30mph`, `14m/s` or `route`; a bare number is an error (which unit?), and a
    /// speed below the slowest the simulator drives is raised to it with a warning.
    static func parseSpeed(_ text: String) throws -> (speed: DriveSimulator.SpeedProfile, warning: String?) {
        if text == "route" { return (.route, nil) }
        let units: [(String, Double)] = [("km/h", 1 / 3.6), ("kmh", 1 / 3.6), ("mph", 0.44704), ("m/s", 1)]
        guard let (suffix, factor) = units.first(where: { text.hasSuffix($0.0) }) else {
            if let bare = Double(text.trimmingCharacters(in: .whitespaces)), bare.isFinite {
                throw UsageError(
                    "--speed \(text) has no unit: write \(text)km/h, \(text)mph or \(text)m/s (or 'route')")
            }
            throw UsageError(
                "--speed must be a speed like 50km/h, 30mph or 14m/s (at most 360 km/h), or 'route'; not '\(text)'"
            )
        }
        let number = String(text.dropLast(suffix.count)).trimmingCharacters(in: .whitespaces)
        guard let value = Double(number), value.isFinite, value > 0, value * factor <= 100 else {
            throw UsageError(
                "--speed must be a positive speed like 50km/h, 30mph or 14m/s (at most 360 km/h), or 'route'; not '\(text)'"
            )
        }
        let slowest = DriveMotion.minimumSpeed
        guard value * factor >= slowest else {
            let warning =
                "voiceguide drive: warning: --speed \(text) is below the slowest simulated speed, \(slowest) m/s "
                + "(\(slowest * 3.6) km/h); driving at \(slowest) m/s"
            return (.constant(slowest), warning)
        }
        return (.constant(value * factor), nil)
    }

    private static func printTable(_ timeline: DriveTimeline, route: Route) {
        print(
            "TIME     LEG STEP MANEUVER               TIER      DIST     SPEED  DUR   END-BEFORE  TEXT")
        for prompt in timeline.prompts {
            var maneuver = "-"
            if prompt.leg >= 0, prompt.leg < route.legs.count, prompt.step >= 0,
                prompt.step < route.legs[prompt.leg].steps.count
            {
                let step = route.legs[prompt.leg].steps[prompt.step]
                maneuver = [step.maneuver.type.rawValue, step.maneuver.modifier?.rawValue].compactMap { $0 }
                    .joined(separator: " ")
            }
            let minutes = Int(prompt.timeS) / 60
            let seconds = prompt.timeS - Double(minutes * 60)
            print(
                String(format: "%3d:%04.1f ", minutes, seconds) + String(prompt.leg).padded(3) + " "
                    + String(prompt.step).padded(4) + " " + maneuver.padded(22) + " "
                    + prompt.tier.rawValue.padded(9) + " " + String(format: "%6.0f m ", prompt.distanceM)
                    + String(format: "%5.1f ", prompt.speedMps * 3.6)
                    + String(format: "%4.1fs ", prompt.durationS)
                    + String(format: "%8.1f s  ", prompt.endsBeforeManeuverS) + prompt.text)
        }
        let summary = timeline.summary
        print(
            """

            \(summary.maneuvers) maneuvers, \(summary.feasible) feasible (≥ 8 s from the previous); \
            final prompt ended 2.5–6 s before: \(summary.finalInWindow)/\(summary.feasible)
            late: \(summary.late), overlaps: \(summary.overlaps), stale: \(summary.stale), \
            repeats: \(summary.repeats), most prompts for one maneuver: \(summary.maxPromptsPerManeuver)
            """)
    }

    /// The drive's audio: silence with each prompt at its time (cut to its heard length).
    private static func writeAudio(_ timeline: DriveTimeline, audio: PromptAudio, to url: URL) throws {
        let rate = audio.renderer.sampleRate
        let end = timeline.prompts.map { $0.timeS + $0.durationS }.max() ?? 0
        var samples = [Int16](repeating: 0, count: Int((end + 1) * Double(rate)))
        for prompt in timeline.prompts {
            let instruction = SpokenInstruction(text: prompt.text, ssml: prompt.ssml)
            var clip = try audio.audio(for: instruction).samples
            let heard = min(clip.count, Int(prompt.durationS * Double(rate)))
            if heard < clip.count {
                clip.removeSubrange(heard...)
                Fade.applyFadeOut(to: &clip, length: min(heard, Fade.length(sampleRate: rate)))
            }
            let start = Int(prompt.timeS * Double(rate))
            for (index, sample) in clip.enumerated() where start + index < samples.count {
                samples[start + index] = sample
            }
        }
        try WAVFile.write(samples: samples, sampleRate: rate, to: url)
    }

    /// Plays each prompt through ALSA when its time comes (time divided by `speedup`).
    private static func playTimeline(
        _ timeline: DriveTimeline, audio: PromptAudio, device: String, speedup: Double, quiet: Bool
    ) async throws {
        let sink = ALSASink(device: device)
        let synthesizer = SpeechSynthesizer(renderer: audio.renderer, sink: sink, voice: audio.voice)
        let instructions = timeline.prompts.map { SpokenInstruction(text: $0.text, ssml: $0.ssml) }
        await synthesizer.prepare(instructions)
        let events = synthesizer.events()
        let clock = ContinuousClock()
        let start = clock.now
        for (prompt, instruction) in zip(timeline.prompts, instructions) {
            try await clock.sleep(until: start + .seconds(prompt.timeS / speedup))
            if !quiet { print(String(format: "▶ %6.1f s  %@", prompt.timeS, prompt.text)) }
            await synthesizer.speak(instruction)
        }
        synthesizer.interruptSpeaking()
        var deviceError: SpeechError?
        var remaining = instructions.count
        for await event in events {
            if case .didSpeak(_, let error) = event {
                if let error, error.kind == .audioDevice { deviceError = error }
                remaining -= 1
                if remaining == 0 { break }
            }
        }
        try? sink.close()
        if let deviceError {
            throw CommandFailure(
                "\(deviceError.message)\n  \(Engines.deviceAdvice(device))", status: ExitStatus.unavailable)
        }
    }
}

/// Reads a route file, turning decoding errors into messages that name the field.
enum RouteLoading {
    static func load(_ path: String) throws -> Route {
        let data = try FileProblem.contents(of: path)
        do {
            return try Route.decode(from: data)
        } catch let error as RouteDecodingError {
            throw CommandFailure("\(path): \(error)")
        }
    }
}
