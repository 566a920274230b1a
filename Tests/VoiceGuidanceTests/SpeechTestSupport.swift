import Foundation
import VoiceGuidance
import VoiceGuidanceTesting

/// Checks that the last `length` samples fall inside a linear ramp from `peak` to zero.
func tailRampsToZero(_ samples: [Int16], length: Int, peak: Double) -> Bool {
    guard samples.count >= length, samples.last == 0 else { return false }
    let tail = samples.suffix(length)
    for (index, sample) in tail.enumerated() {
        let allowed = peak * Double(length - index) / Double(length) + 2
        if abs(Double(sample)) > allowed { return false }
    }
    return true
}

/// What the RecordingRenderer makes for plain `text`.
func renderedSamples(_ text: String, renderer: RecordingRenderer = RecordingRenderer()) throws -> [Int16] {
    try renderer.render(Utterance(text: text), voice: .fallback).samples
}

/// A prompt long enough (~2.5 s with RecordingRenderer) to be cut in the middle.
let longText = "turn left onto main street then continue"
