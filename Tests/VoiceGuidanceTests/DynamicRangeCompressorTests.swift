import Foundation
import Testing
import VoiceGuidanceTesting

@testable import VoiceGuidance

/// Tone bursts (300 Hz with noise, 40 ms on / 20 ms off like syllables) alternating between
/// a loud and a quiet level, one second each, for `seconds` in total.
private func burstSignal(loudDB: Double, quietDB: Double, seconds: Int, sampleRate: Int) -> [Int16] {
    var generator = SplitMix64(seed: 42)
    var samples: [Int16] = []
    samples.reserveCapacity(seconds * sampleRate)
    for second in 0..<seconds {
        let peak = pow(10, (second.isMultiple(of: 2) ? loudDB : quietDB) / 20) * 32767
        for n in 0..<sampleRate {
            let inBurst = (n % (sampleRate * 60 / 1000)) < sampleRate * 40 / 1000
            guard inBurst else {
                samples.append(0)
                continue
            }
            let t = Double(n) / Double(sampleRate)
            let noise = Double.random(in: -1...1, using: &generator)
            let value = peak * (0.8 * sin(2 * .pi * 300 * t) + 0.2 * noise)
            samples.append(Int16(value.rounded()))
        }
    }
    return samples
}

@Suite struct DynamicRangeCompressorTests {
    @Test func blockLoopsMatchTheirPlainDefinitions() {
        var generator = SplitMix64(seed: 9)
        var samples = (0..<1_000).map { _ in Int16.random(in: .min ... .max, using: &generator) }
        samples[17] = .min
        samples.withUnsafeBufferPointer { buffer in
            let (squares, largest) = DynamicRangeCompressor.levels(
                of: buffer.baseAddress!, count: buffer.count)
            #expect(squares == samples.reduce(Int64(0)) { $0 + Int64($1) * Int64($1) })
            #expect(largest == 32_768)
            let ramped = DynamicRangeCompressor.largestMagnitude(
                buffer.baseAddress!, count: 1_000, from: 0.5, step: 0.001)
            let expected = samples.indices.map { abs(Float(samples[$0]) * (0.5 + 0.001 * Float($0 + 1))) }
                .max()!
            #expect(ramped == expected)
        }
        var ramp = samples.map { $0 / 2 }
        ramp.withUnsafeMutableBufferPointer { buffer in
            DynamicRangeCompressor.applyRamp(buffer.baseAddress!, count: 1_000, from: 0.5, step: 0.001)
        }
        for index in samples.indices {
            let value = Float(samples[index] / 2) * (0.5 + 0.001 * Float(index + 1))
            #expect(ramp[index] == Int16(value.rounded(.toNearestOrEven)))
        }
    }

    @Test func int16RoundsToNearestEvenLikeTheLibrary() {
        var values: [Float] = [
            0, -0.0, 0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.49999997, 32766.5, -32767.5, 32767, -32768,
        ]
        var generator = SplitMix64(seed: 7)
        for _ in 0..<100_000 { values.append(Float.random(in: -32768...32767, using: &generator)) }
        for value in values {
            #expect(DynamicRangeCompressor.int16(value) == Int16(value.rounded(.toNearestOrEven)), "\(value)")
        }
    }

    let sampleRate = 22_050

    @Test func shrinksLoudnessRangeByAtLeastSixDB() {
        let input = burstSignal(loudDB: -6, quietDB: -30, seconds: 6, sampleRate: sampleRate)
        var output = input
        DynamicRangeCompressor.speech.process(&output, sampleRate: sampleRate)
        let before = AudioAnalysis.loudnessRange(input, sampleRate: sampleRate)
        let after = AudioAnalysis.loudnessRange(output, sampleRate: sampleRate)
        print("synthetic loudness range: \(before) dB → \(after) dB")
        #expect(before > 20)
        #expect(before - after >= 6, "loudness range \(before) dB → \(after) dB")
    }

    @Test func peaksNeverClipEvenWithHugeMakeupGain() {
        let input = burstSignal(loudDB: 0, quietDB: -20, seconds: 2, sampleRate: sampleRate)
        var output = input
        let loud = DynamicRangeCompressor(
            thresholdDB: -40, ratio: 1.5, attack: 0.02, release: 0.2, makeupGainDB: 30, ceilingDB: -1)
        loud.process(&output, sampleRate: sampleRate)
        let ceiling = Int(pow(10, -1.0 / 20) * 32767) + 1
        let peak = output.map { abs(Int($0)) }.max() ?? 0
        #expect(peak <= ceiling, "peak \(peak) over ceiling \(ceiling)")
        #expect(!output.contains(Int16.min))
        #expect(peak > ceiling / 2, "limiter should hold peaks near the ceiling, not crush them")
    }

    @Test func quietPartsComeUpAndLoudPartsGoDown() {
        let input = burstSignal(loudDB: -6, quietDB: -30, seconds: 2, sampleRate: sampleRate)
        var output = input
        DynamicRangeCompressor.speech.process(&output, sampleRate: sampleRate)
        func rms(_ slice: ArraySlice<Int16>) -> Double {
            (slice.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(slice.count)).squareRoot()
        }
        let loudPart = sampleRate / 4..<sampleRate * 3 / 4
        let quietPart = sampleRate + sampleRate / 4..<sampleRate + sampleRate * 3 / 4
        #expect(rms(output[loudPart]) < rms(input[loudPart]))
        #expect(rms(output[quietPart]) > rms(input[quietPart]) * 1.5)
    }

    /// An input gain is the same as compressing the gained signal, without clipping it first.
    @Test func inputGainActsAsAGainBeforeTheCompressor() {
        // Quiet enough that +4.9 dB cannot clip: the gained copy is then exact.
        let input = burstSignal(loudDB: -12, quietDB: -30, seconds: 2, sampleRate: sampleRate)
        let factor = pow(10, 4.9 / 20)
        var gained = input.map { Int16((Double($0) * factor).rounded()) }
        DynamicRangeCompressor.speech.process(&gained, sampleRate: sampleRate)
        var compressor = DynamicRangeCompressor.speech
        compressor.inputGainDB = 4.9
        var folded = input
        compressor.process(&folded, sampleRate: sampleRate)
        #expect(folded.count == gained.count)
        let largestDifference = zip(folded, gained).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(largestDifference <= 8, "largest difference \(largestDifference)")
        // Louder than without the input gain (2:1 above the knee: about half of it).
        func rms(_ slice: ArraySlice<Int16>) -> Double {
            (slice.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(slice.count)).squareRoot()
        }
        var plain = input
        DynamicRangeCompressor.speech.process(&plain, sampleRate: sampleRate)
        let risen = 20 * log10(rms(folded[...]) / rms(plain[...]))
        #expect(risen > 1.5 && risen < 4.9, "rose \(risen) dB")
        // A loud input gained far past full scale still never clips.
        var loud = burstSignal(loudDB: -1, quietDB: -6, seconds: 1, sampleRate: sampleRate)
        compressor.inputGainDB = 20
        compressor.process(&loud, sampleRate: sampleRate)
        #expect(loud.map { abs(Int($0)) }.max()! <= Int(pow(10, -1.0 / 20) * 32767) + 1)
    }

    @Test func chunkedStreamMatchesWholeSegmentAndNeverClips() {
        let input = burstSignal(loudDB: -1, quietDB: -30, seconds: 4, sampleRate: sampleRate)
        var whole = input
        DynamicRangeCompressor.speech.process(&whole, sampleRate: sampleRate)
        var streamed: [Int16] = []
        // A stream starts from the state its first 100 ms warrant, as the whole segment does.
        let lead = DynamicRangeCompressor.speech.primingSampleCount(sampleRate: sampleRate)
        var state = input[..<lead].withUnsafeBufferPointer {
            DynamicRangeCompressor.speech.primedState(from: $0, sampleRate: sampleRate)
        }
        var start = 0
        var chunkSize = 317
        while start < input.count {
            var chunk = Array(input[start..<min(start + chunkSize, input.count)])
            DynamicRangeCompressor.speech.process(&chunk, sampleRate: sampleRate, state: &state)
            streamed += chunk
            start += chunkSize
            chunkSize = chunkSize == 317 ? 1024 : 317
        }
        #expect(streamed.count == whole.count)
        let ceiling = Int(pow(10, -1.0 / 20) * 32767) + 1
        #expect(streamed.map { abs(Int($0)) }.max()! <= ceiling)
        // Same sound: sample differences only where the limiter's look-ahead met a chunk edge.
        var differing = 0
        for index in whole.indices where abs(Int(whole[index]) - Int(streamed[index])) > 64 { differing += 1 }
        #expect(Double(differing) / Double(whole.count) < 0.01, "\(differing) samples differ")
        // Without the state carried over, every chunk would start uncompressed.
        var fresh = Array(input[sampleRate / 2..<(sampleRate / 2 + 1024)])
        DynamicRangeCompressor.speech.process(&fresh, sampleRate: sampleRate)
        #expect(fresh != Array(whole[sampleRate / 2..<(sampleRate / 2 + 1024)]))
    }

    @Test func firstBurstGetsTheGainOfTheBurstsAfterIt() {
        let input = burstSignal(loudDB: -6, quietDB: -6, seconds: 1, sampleRate: sampleRate)
        var output = input
        DynamicRangeCompressor.speech.process(&output, sampleRate: sampleRate)
        func gainDB(_ range: Range<Int>) -> Double {
            AudioLevel.rmsDB(output[range]) - AudioLevel.rmsDB(input[range])
        }
        let burst = sampleRate * 40 / 1000
        let period = sampleRate * 60 / 1000
        let first = gainDB(0..<burst / 2)
        let later = (5..<15).map { gainDB($0 * period..<$0 * period + burst) }
        // A compressor with no history would raise the first 20 ms by about 10 dB.
        #expect(first <= later.max()! + 0.5, "first burst \(first) dB, later \(later) dB")
        #expect(first >= later.min()! - 3, "first burst \(first) dB, later \(later) dB")
        var fresh = input
        var state = DynamicRangeCompressor.State()
        DynamicRangeCompressor.speech.process(&fresh, sampleRate: sampleRate, state: &state)
        let unprimed = AudioLevel.rmsDB(fresh[0..<burst / 2]) - AudioLevel.rmsDB(input[0..<burst / 2])
        #expect(unprimed > later.max()! + 3, "without priming the onset is boosted: \(unprimed) dB")
    }

    @Test func primedStateOfSilenceIsTheFreshState() {
        let silence = [Int16](repeating: 0, count: 4_000)
        let state = silence.withUnsafeBufferPointer {
            DynamicRangeCompressor.speech.primedState(from: $0, sampleRate: sampleRate)
        }
        #expect(state == DynamicRangeCompressor.State())
    }

    @Test func gainComputerFollowsRatioAboveTheKnee() {
        let compressor = DynamicRangeCompressor(
            thresholdDB: -20, ratio: 4, kneeWidthDB: 0, attack: 0.01, release: 0.1, makeupGainDB: 0)
        #expect(compressor.gainReductionDB(atLevel: -30) == 0)
        #expect(abs(compressor.gainReductionDB(atLevel: -8) - -9) < 1e-9)
    }

    @Test func silenceAndEmptyInputStayAsTheyAre() {
        var silence = [Int16](repeating: 0, count: 1000)
        DynamicRangeCompressor.speech.process(&silence, sampleRate: sampleRate)
        #expect(silence.allSatisfy { $0 == 0 })
        var empty: [Int16] = []
        DynamicRangeCompressor.speech.process(&empty, sampleRate: sampleRate)
        #expect(empty.isEmpty)
    }
}

@Suite struct ExpletiveBeepTests {
    @Test func replacesTheRangeWithAOneKilohertzToneOfTheSameLength() {
        let sampleRate = 22_050
        var samples = [Int16](repeating: 1234, count: 10_000)
        let range = 2_000..<6_410
        ExpletiveBeep.standard.apply(to: &samples, range: range, sampleRate: sampleRate)
        #expect(samples.count == 10_000)
        #expect(samples[..<2_000].allSatisfy { $0 == 1234 })
        #expect(samples[6_410...].allSatisfy { $0 == 1234 })
        let beep = Array(samples[range])
        // Zero crossings: a 1 kHz tone crosses twice per millisecond.
        var crossings = 0
        for index in 1..<beep.count where (beep[index - 1] < 0) != (beep[index] < 0) { crossings += 1 }
        let seconds = Double(beep.count) / Double(sampleRate)
        let frequency = Double(crossings) / 2 / seconds
        #expect(abs(frequency - 1000) < 20, "measured \(frequency) Hz")
        // Fades: starts and ends near zero, full level in the middle.
        #expect(abs(Int(beep.first!)) < 100 && abs(Int(beep.last!)) < 100)
        let peak = beep.map { abs(Int($0)) }.max()!
        #expect(abs(Double(peak) - pow(10, -12.0 / 20) * 32767) < 200)
    }

    @Test func clampsARangeOutsideTheBuffer() {
        var samples = [Int16](repeating: 7, count: 100)
        ExpletiveBeep.standard.apply(to: &samples, range: 90..<500, sampleRate: 22_050)
        #expect(samples.count == 100)
        #expect(samples[..<90].allSatisfy { $0 == 7 })
        #expect(ExpletiveBeep.standard.tone(count: 0, sampleRate: 22_050).isEmpty)
    }
}
