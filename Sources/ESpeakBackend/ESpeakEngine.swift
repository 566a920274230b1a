internal import CEspeakNG
import Foundation
import Synchronization
import VoiceGuidance

/// Something eSpeak NG reported while synthesizing, in the units it reports them.
struct ESpeakEvent: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        case word, sentence, end, mark, other
    }
    var kind: Kind
    /// 1-based position in the text handed to eSpeak, counted in characters (Unicode scalars).
    var textPosition: Int
    /// Length in characters (words only).
    var length: Int
    /// Sample offset from the start of this synthesis call.
    var sample: Int
}

/// The process-wide eSpeak NG engine: the only code that calls libespeak-ng.
///
/// libespeak-ng keeps its state in globals and cannot be terminated and started again, so there
/// is one engine per process, started lazily by the first `shared(dataPath:)` call and never
/// terminated. Every call into the library goes through `perform`, which holds a lock (`Locked`);
/// output is synchronous (the callback runs on the caller's thread, inside the lock).
final class ESpeakEngine: Sendable {
    /// The data folder the engine was started with (nil: the library's default).
    let dataPath: String?
    /// Samples per second of everything the engine makes.
    let sampleRate: Int
    private let session: Locked<ESpeakSession>
    /// The thread inside `perform` (`pthread_self`), or 0.
    private let owner = Atomic<UInt>(0)

    private enum Slot: Sendable {
        case empty
        case ready(ESpeakEngine)
        case failed(dataPath: String?, error: ESpeakError)
    }
    private static let slot = Locked<Slot>(.empty)

    private init(dataPath: String?, sampleRate: Int, session: ESpeakSession) {
        self.dataPath = dataPath
        self.sampleRate = sampleRate
        self.session = Locked(session)
    }

    /// The engine, started on first use.
    ///
    /// - Parameter dataPath: the folder holding `espeak-ng-data` (or the data folder itself), or
    ///   nil for the library's default (`ESPEAK_DATA_PATH`, then the system folder). Ignored
    ///   when nil and the engine already runs; a different path than the running engine's is an
    ///   error.
    /// - Throws: `ESpeakError` when the library cannot start (data missing).
    static func shared(dataPath: String? = nil) throws(ESpeakError) -> ESpeakEngine {
        try slot.withLock { (slot: inout Slot) throws(ESpeakError) -> ESpeakEngine in
            switch slot {
            case .ready(let engine):
                if let dataPath, dataPath != engine.dataPath {
                    throw ESpeakError(
                        code: .other,
                        message:
                            "eSpeak NG already runs with data from \(engine.dataPath ?? "the default folder"); "
                            + "one engine per process cannot switch to \(dataPath)")
                }
                return engine
            case .failed(let failedPath, let error) where failedPath == dataPath:
                throw error
            case .empty, .failed:
                do throws(ESpeakError) {
                    let engine = try start(dataPath: dataPath)
                    slot = .ready(engine)
                    return engine
                } catch {
                    slot = .failed(dataPath: dataPath, error: error)
                    throw error
                }
            }
        }
    }

    private static func start(dataPath: String?) throws(ESpeakError) -> ESpeakEngine {
        if let dataPath {
            dataPath.withCString { espeak_ng_InitializePath($0) }
        } else {
            espeak_ng_InitializePath(nil)
        }
        var context: espeak_ng_ERROR_CONTEXT? = nil
        let status = espeak_ng_Initialize(&context)
        espeak_ng_ClearErrorContext(&context)
        try check(status, doing: "start eSpeak NG (data \(dataPath ?? "in the default folder"))")
        try check(
            espeak_ng_InitializeOutput(ENOUTPUT_MODE_SYNCHRONOUS, 0, nil),
            doing: "set eSpeak NG to synchronous output")
        espeak_SetSynthCallback(synthesisCallback)
        let rate = Int(espeak_ng_GetSampleRate())
        guard rate > 0 else {
            throw ESpeakError(code: .other, message: "eSpeak NG reported sample rate \(rate)")
        }
        return ESpeakEngine(dataPath: dataPath, sampleRate: rate, session: ESpeakSession())
    }

    /// Runs `body` with exclusive use of the library.
    ///
    /// - Throws: `ESpeakError` when called from inside `body` on the same thread (a render
    ///   handler that renders again): the lock is not reentrant, so that would deadlock.
    func perform<Result: Sendable>(_ body: (inout ESpeakSession) throws -> Result) throws -> Result {
        #if canImport(Glibc)
            let thread = UInt(pthread_self())
        #else
            let thread = UInt(bitPattern: pthread_self())
        #endif
        if owner.load(ordering: .acquiring) == thread {
            throw ESpeakError(
                code: .other,
                message:
                    "eSpeak NG is already in use on this thread: a render handler must not call the renderer")
        }
        return try session.withLock { session in
            owner.store(thread, ordering: .releasing)
            defer { owner.store(0, ordering: .releasing) }
            return try body(&session)
        }
    }
}

/// Exclusive access to libespeak-ng, handed out by `ESpeakEngine.perform`.
struct ESpeakSession: Sendable {
    /// The voice name last selected successfully, as passed to eSpeak.
    private(set) var currentVoice: String?
    private var cachedVoices: [ESpeakVoice]?
    private var cachedResolver: ESpeakVoiceResolver?

    fileprivate init() {}

    /// Selects a voice by name (`en-us`, `gmw/de`, `en-us+f3`).
    ///
    /// After a failure, the last voice that worked is selected again, so a bad name never
    /// leaves the library pointing at a broken voice.
    mutating func selectVoice(_ name: String) throws(ESpeakError) {
        if name == currentVoice { return }
        let status = name.withCString { espeak_ng_SetVoiceByName($0) }
        do {
            try check(status, doing: "select the eSpeak NG voice '\(name)'")
            currentVoice = name
        } catch {
            let fallback = currentVoice ?? "en"
            currentVoice = nil
            if fallback.withCString({ espeak_ng_SetVoiceByName($0) }) == ENS_OK {
                currentVoice = fallback
            }
            throw error
        }
    }

    /// Sets rate (words per minute, 80…450), base pitch (0…99), and eSpeak's own volume.
    func setProsody(rate: Int, pitch: Int, volume: Int = 100) throws(ESpeakError) {
        try check(espeak_ng_SetParameter(espeakRATE, Int32(rate), 0), doing: "set the rate to \(rate)")
        try check(espeak_ng_SetParameter(espeakPITCH, Int32(pitch), 0), doing: "set the pitch to \(pitch)")
        try check(
            espeak_ng_SetParameter(espeakVOLUME, Int32(volume), 0), doing: "set the volume to \(volume)")
    }

    /// Synthesizes `text` in the current voice, handing each chunk and its events to `receive`.
    ///
    /// - Parameters:
    ///   - text: UTF-8 text; with `phonemeInput`, text inside `[[ ]]` is read as eSpeak phonemes.
    ///   - receive: gets each chunk of samples and the events eSpeak reported with it; returns
    ///     false to stop the synthesis (it stops within the chunk).
    /// - Returns: false when `receive` stopped it.
    /// - Note: text over ``ESpeakLimits`` is cut to size first (it would overrun eSpeak's buffers).
    /// - Throws: `ESpeakError` when eSpeak fails.
    func synthesize(
        _ text: String, phonemeInput: Bool = false,
        receive: (UnsafeBufferPointer<Int16>, [ESpeakEvent]) -> Bool
    ) throws(ESpeakError) -> Bool {
        // The last gate before C: whatever a caller passes, eSpeak never gets more than it
        // can take (`plan` has cut it already, with a warning; then this changes nothing).
        let text = ESpeakLimits.prepared(text, isPhonemeInput: phonemeInput, voice: currentVoice)
        var flags = UInt32(espeakCHARS_UTF8)
        if phonemeInput { flags |= UInt32(espeakPHONEMES) }
        // Set on every call (it only stores a pointer): code in the same process that drives
        // libespeak-ng directly, such as a benchmark, may have replaced it.
        espeak_SetSynthCallback(synthesisCallback)
        let status = withoutActuallyEscaping(receive) { escapable in
            let request = SynthesisRequest(receive: escapable)
            return withExtendedLifetime(request) {
                let userData = Unmanaged.passUnretained(request).toOpaque()
                var bytes = Array(text.utf8CString)
                return bytes.withUnsafeMutableBufferPointer { buffer in
                    espeak_ng_Synthesize(
                        buffer.baseAddress, buffer.count, 0, POS_CHARACTER, 0, flags, nil, userData)
                }
            }
        }
        if status == ENS_SPEECH_STOPPED {
            // A stopped synthesis leaves the rest of its clause in eSpeak's text reader, and the
            // next call (a synthesis or a phoneme query) would begin with it ("Street" → "tee"):
            // drain it with a synthesis whose audio goes nowhere (no user data: the callback
            // drops it). espeak_Cancel does not clear it.
            var empty = Array(" ".utf8CString)
            _ = empty.withUnsafeMutableBufferPointer { buffer in
                espeak_ng_Synthesize(
                    buffer.baseAddress, buffer.count, 0, POS_CHARACTER, 0, UInt32(espeakCHARS_UTF8), nil, nil)
            }
            return false
        }
        try check(status, doing: "synthesize speech")
        return true
    }

    /// The phonemes eSpeak would speak for `text` in the current voice, clause by clause.
    ///
    /// - Parameter ipa: IPA symbols when true, eSpeak's ASCII mnemonics when false.
    /// - Note: text over ``ESpeakLimits`` is cut into clauses first, as `render` cuts it.
    func phonemes(for text: String, ipa: Bool) -> [String] {
        let mode = Int32(ipa ? espeakPHONEMES_IPA : 0)
        var clauses: [String] = []
        ESpeakLimits.prepared(text, isPhonemeInput: false, voice: currentVoice).withCString {
            start in
            var pointer: UnsafeRawPointer? = UnsafeRawPointer(start)
            while let before = pointer {
                let result = espeak_TextToPhonemes(&pointer, Int32(espeakCHARS_UTF8), mode)
                if let result {
                    let clause = String(cString: result).trimmingCharacters(in: .whitespacesAndNewlines)
                    if !clause.isEmpty { clauses.append(clause) }
                }
                if let after = pointer, after <= before { break }
            }
        }
        return clauses
    }

    /// A resolver for the installed voices, made once (every render asks for it).
    mutating func voiceResolver() -> ESpeakVoiceResolver {
        if let cachedResolver { return cachedResolver }
        let resolver = ESpeakVoiceResolver(installed: installedVoices())
        cachedResolver = resolver
        return resolver
    }

    /// Every voice in eSpeak NG's data folder (read once, then cached).
    mutating func installedVoices() -> [ESpeakVoice] {
        if let cachedVoices { return cachedVoices }
        var voices: [ESpeakVoice] = []
        if let list = espeak_ListVoices(nil) {
            var index = 0
            while let entry = list[index] {
                let voice = entry.pointee
                let languages = languageList(voice.languages)
                voices.append(
                    ESpeakVoice(
                        name: voice.name.map { String(cString: $0) } ?? "",
                        languages: languages.map(\.name),
                        identifier: voice.identifier.map { String(cString: $0) } ?? "",
                        languagePriorities: languages.map(\.priority)))
                index += 1
            }
        }
        cachedVoices = voices
        return voices
    }
}

/// Reads eSpeak's language list: (priority byte, NUL-terminated name)… ending in a NUL byte.
private func languageList(_ pointer: UnsafePointer<CChar>?) -> [(name: String, priority: Int)] {
    guard var cursor = pointer else { return [] }
    var languages: [(name: String, priority: Int)] = []
    while cursor.pointee != 0 {
        let priority = Int(UInt8(bitPattern: cursor.pointee))
        cursor += 1
        let name = String(cString: cursor)
        if !name.isEmpty { languages.append((name, priority)) }
        cursor += name.utf8.count + 1
    }
    return languages
}

/// Turns an `espeak_ng_STATUS` into `ESpeakError` with the library's message.
private func check(_ status: espeak_ng_STATUS, doing action: String) throws(ESpeakError) {
    if status == ENS_OK { return }
    let code = ESpeakError.Code(rawValue: UInt32(truncatingIfNeeded: status.rawValue))
    if code == .speechStopped {
        throw ESpeakError(code: code, message: "cannot \(action): speech was stopped")
    }
    var buffer = [CChar](repeating: 0, count: 512)
    espeak_ng_GetStatusCodeMessage(status, &buffer, buffer.count)
    let text = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    throw ESpeakError(
        code: code, message: "cannot \(action): \(text.isEmpty ? "status \(code.rawValue)" : text)")
}

/// The per-call state the C callback reaches through `user_data`.
private final class SynthesisRequest {
    let receive: (UnsafeBufferPointer<Int16>, [ESpeakEvent]) -> Bool

    init(receive: @escaping (UnsafeBufferPointer<Int16>, [ESpeakEvent]) -> Bool) {
        self.receive = receive
    }
}

/// The C callback: a chunk of samples (nil at the end) and a list of events.
private func synthesisCallback(
    _ wave: UnsafeMutablePointer<Int16>?, _ count: Int32, _ events: UnsafeMutablePointer<espeak_EVENT>?
) -> Int32 {
    guard let events, let userData = events.pointee.user_data else { return 0 }
    let request = Unmanaged<SynthesisRequest>.fromOpaque(userData).takeUnretainedValue()
    var list: [ESpeakEvent] = []
    var cursor = events
    while cursor.pointee.type != espeakEVENT_LIST_TERMINATED {
        let event = cursor.pointee
        let kind: ESpeakEvent.Kind =
            switch event.type {
            case espeakEVENT_WORD: .word
            case espeakEVENT_SENTENCE: .sentence
            case espeakEVENT_END: .end
            case espeakEVENT_MARK: .mark
            default: .other
            }
        list.append(
            ESpeakEvent(
                kind: kind, textPosition: Int(event.text_position), length: Int(event.length),
                sample: Int(event.sample)))
        cursor += 1
    }
    let samples = UnsafeBufferPointer(start: wave, count: wave == nil ? 0 : max(0, Int(count)))
    if samples.isEmpty && list.isEmpty { return 0 }
    return request.receive(samples, list) ? 0 : 1
}
