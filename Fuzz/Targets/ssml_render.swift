// Fuzz target: SSML bytes parsed, normalised and rendered through eSpeak NG (linked), the way
// `render` speaks a user's file. The first byte picks the voice profile.
// Built without comparison tracing (`fuzz-coverage`): most of its time is eSpeak's synthesis,
// which is not instrumented, and our per-sample DSP, whose traced comparisons made every input
// 1.6 times slower (225 against 357 inputs/s, 90 s each from the seeds, 2026-12-02). The parser's
// comparisons are solved by the `ssml` target, which keeps the tracing, and the dictionary.
// fuzz-needs: espeak
// fuzz-seeds: ssml-samples
// fuzz-max-len: 600
// fuzz-timeout: 30
// fuzz-dict: Fuzz/Dictionaries/ssml.dict
// fuzz-coverage: edge,indirect-calls,inline-8bit-counters,pc-table

import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Set by the report callback when a fault that must end the run was reported and the run went on.
private nonisolated(unsafe) var faultReported = false

/// Made once, before the first input: through libespeak-ng built with AddressSanitizer and
/// recovery (Fuzz/espeak-asan.sh, `halt_on_error=0`), a read past a stack or global array inside
/// eSpeak (its known one-byte over-reads, Fuzz/README.md) is reported and the run goes on, while
/// any other fault (a write, the heap, freed memory) is noted, and the input aborts once the
/// render returns, so that libFuzzer keeps it. Not inside the callback: there, without recovery
/// (Debian's library, whose faults ASan sees at its interceptors), ASan already holds the crash
/// state, libFuzzer's handler of the abort returns at once, and the input was lost (2026-12-06);
/// without recovery ASan ends the run after the callback itself, keeping the input. ASan calls
/// the callback with each report; without ASan there is none to install.
private let faultsThatEndTheRun: Void = {
    typealias Report = @convention(c) (UnsafePointer<CChar>?) -> Void
    typealias Install = @convention(c) (Report?) -> Void
    guard let symbol = dlsym(nil, "__asan_set_error_report_callback") else { return }
    let install = unsafeBitCast(symbol, to: Install.self)
    install { report in
        let text = report.map { String(cString: $0) } ?? ""
        let isKnownRead =
            (text.contains("stack-buffer-") || text.contains("global-buffer-overflow"))
            && text.contains("\nREAD of size ")
        if !isKnownRead { faultReported = true }
    }
}()

/// The renderer and the voice profiles of Voices/, made once (eSpeak is one engine per process).
private let renderer = try! ESpeakRenderer()
private let voices: [VoiceProfile] = {
    let catalog = try! VoiceCatalog(directory: URL(fileURLWithPath: "Voices"))
    return ["en-US", "en-GB", "fr-FR", "de-DE", "es-ES"].map { try! catalog.profile(id: $0) }
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSSMLRender(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    faultsThatEndTheRun
    let voice = voices[Int(bytes[0]) % voices.count]
    let data = Data(bytes: bytes + 1, count: count - 1)
    guard let utterance = try? SSMLParser().parse(data: data) else { return 0 }
    var samples = 0
    _ = try? renderer.render(utterance, voice: voice) { event in
        if case .audio(let chunk) = event { samples += chunk.count }
        return .continue
    }
    if faultReported { abort() }
    return 0
}
