import CEspeakNG

/// libespeak-ng driven directly, with nothing of ours around it: the baseline every ratio uses.
///
/// It runs in the same process as `ESpeakRenderer`, after it has initialized the one engine;
/// `ESpeakEngine` sets its callback again on every call, so replacing it here is safe.
enum RawESpeak {
    /// Counts samples through `user_data`.
    final class Counter {
        var samples = 0
    }

    /// Selects a voice and the rate, as the renderer would for a plain segment.
    static func prepare(voice: String, rate: Int) {
        _ = espeak_ng_SetVoiceByName(voice)
        _ = espeak_ng_SetParameter(espeakRATE, Int32(rate), 0)
        _ = espeak_ng_SetParameter(espeakPITCH, 50, 0)
    }

    /// Synthesizes `text` (plain UTF-8) and returns the number of samples made.
    static func synthesize(_ text: String) -> Int {
        espeak_SetSynthCallback { wave, count, events in
            if wave != nil, count > 0, let user = events?.pointee.user_data {
                Unmanaged<Counter>.fromOpaque(user).takeUnretainedValue().samples += Int(count)
            }
            return 0
        }
        let counter = Counter()
        withExtendedLifetime(counter) {
            var bytes = Array(text.utf8CString)
            _ = bytes.withUnsafeMutableBufferPointer { buffer in
                espeak_ng_Synthesize(
                    buffer.baseAddress, buffer.count, 0, POS_CHARACTER, 0, UInt32(espeakCHARS_UTF8), nil,
                    Unmanaged.passUnretained(counter).toOpaque())
            }
        }
        return counter.samples
    }
}
