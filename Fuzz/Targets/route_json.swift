// Fuzz target: route JSON bytes through the decoder and its checks, then every step's phrases
// in every language and unit system, and (for short routes) a whole simulated drive, as
// `drive` and `render-route` read a user's route.
// fuzz-seeds: Tests/Fixtures/directions
// fuzz-max-len: 16384
// fuzz-timeout: 20

import Foundation

/// Phrase builders for every phrase book and unit system, made once.
private let builders: [PhraseBuilder] = ["en", "fr", "de", "es"].flatMap { language in
    let book = try! PhraseBook.load(directory: URL(fileURLWithPath: "Voices/phrases"), language: language)
    return UnitSystem.allCases.map { PhraseBuilder(book: book, units: $0) }
}

/// The longest drive simulated per input, in simulated seconds (one scheduler update each).
private let longestDrive = 900.0

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRouteJSON(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    guard let routes = try? Route.routes(from: data) else { return 0 }
    for route in routes.prefix(2) {
        for builder in builders {
            speakSteps(of: route, with: builder)
        }
        let motion = DriveMotion(route: route, speed: .route)
        if motion.totalTime <= longestDrive {
            let drive = DriveSimulator(
                route: route, phrases: builders[0], speed: .route, gpsNoise: 5,
                durationOf: { instruction in Double(instruction.text.count) / 15 })
            _ = drive.run()
        }
    }
    return 0
}

/// Every sentence a builder makes for the steps of `route`.
private func speakSteps(of route: Route, with builder: PhraseBuilder) {
    for leg in route.legs {
        for (index, step) in leg.steps.enumerated() {
            let next = index + 1 < leg.steps.count ? leg.steps[index + 1] : nil
            for wording in Wording.allCases {
                _ = builder.finalText(for: step, wording: wording, then: next)
                _ = builder.departText(for: step, wording: wording)
                if let distance = builder.distance(step.distance) {
                    _ = builder.approachText(for: step, distance: distance, wording: wording, then: next)
                    _ = builder.continueText(on: step, distance: distance, wording: wording)
                }
            }
        }
    }
}
