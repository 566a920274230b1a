// Fuzz target: route JSON bytes through the decoder and its checks, then every step's phrases
// in every language and unit system and the routed drive time, as `drive` and `render-route`
// read a user's route. (The simulated drive lives in the DriveSimulation module since it left
// the core; this target compiles the core only.)
// fuzz-seeds: Tests/Fixtures/directions
// fuzz-max-len: 16384
// fuzz-timeout: 20

import Foundation

/// Phrase builders for every phrase book and unit system, made once.
private let builders: [PhraseBuilder] = ["en", "fr", "de", "es"].flatMap { language in
    let book = try! PhraseBook.load(directory: URL(fileURLWithPath: "Voices/phrases"), language: language)
    return UnitSystem.allCases.map { PhraseBuilder(book: book, units: $0) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRouteJSON(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    guard let routes = try? Route.routes(from: data) else { return 0 }
    for route in routes.prefix(2) {
        for builder in builders {
            speakSteps(of: route, with: builder)
        }
        _ = route.routedDriveTime
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
