// Every call into libasound goes through this file; nothing else imports CALSA.
internal import CALSA
import Foundation
import VoiceGuidance

/// ALSA's own diagnostics, caught per thread instead of being printed on stderr.
private let capturedMessages = Locked<[UInt: [String]]>([:])

/// The handler ALSA calls (on the failing thread) instead of printing to stderr.
private let errorHandler: snd_local_error_handler_t = { file, line, function, code, format, arguments in
    guard let format, let arguments else { return }
    var buffer = [CChar](repeating: 0, count: 512)
    _ = vsnprintf(&buffer, buffer.count, format, arguments)
    var text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    if let function { text = "\(String(cString: function)): \(text)" }
    let thread = UInt(pthread_self())
    capturedMessages.withLock { messages in
        var list = messages[thread, default: []]
        list.append(text)
        if list.count > 8 { list.removeFirst(list.count - 8) }
        messages[thread] = list
    }
}

/// Thin, checked wrappers over libasound.
enum ALSACalls {
    /// Silences ALSA on this thread (its messages are kept for the next error) and forgets
    /// earlier messages.
    static func beginCall() {
        _ = snd_lib_error_set_local(errorHandler)
        let thread = UInt(pthread_self())
        capturedMessages.withLock { _ = $0.removeValue(forKey: thread) }
    }

    /// ALSA's messages on this thread since `beginCall`.
    static func takeMessages() -> [String] {
        let thread = UInt(pthread_self())
        return capturedMessages.withLock { $0.removeValue(forKey: thread) ?? [] }
    }

    /// Turns a negative ALSA return code into an `ALSAError`; passes other values through.
    @discardableResult
    static func check(_ result: Int32, _ operation: String, device: String) throws(ALSAError) -> Int32 {
        guard result < 0 else { return result }
        throw error(result, operation, device: device)
    }

    /// The `ALSAError` for a negative return code, with `snd_strerror`'s text and ALSA's messages.
    static func error(_ result: Int32, _ operation: String, device: String) -> ALSAError {
        ALSAError(
            code: ALSAError.Code(rawValue: -result), operation: operation, device: device,
            message: String(cString: snd_strerror(result)), details: takeMessages())
    }

    /// The playback devices ALSA's name hints list (IOID nil or "Output").
    static func outputDevices() throws(ALSAError) -> [ALSADevice] {
        beginCall()
        var hints: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
        try check(snd_device_name_hint(-1, "pcm", &hints), "snd_device_name_hint", device: "pcm")
        guard let hints else { return [] }
        defer { snd_device_name_free_hint(hints) }
        func value(_ hint: UnsafeMutableRawPointer, _ id: String) -> String? {
            guard let pointer = snd_device_name_get_hint(hint, id) else { return nil }
            defer { free(pointer) }
            return String(cString: pointer)
        }
        var devices: [ALSADevice] = []
        var index = 0
        while let hint = hints[index] {
            index += 1
            let direction = value(hint, "IOID")
            guard direction == nil || direction == "Output", let name = value(hint, "NAME") else { continue }
            devices.append(ALSADevice(name: name, description: value(hint, "DESC") ?? ""))
        }
        return devices
    }
}

/// An open ALSA playback PCM (`snd_pcm_t`), mono or interleaved S16. Not thread-safe: use it
/// from one thread at a time.
final class ALSAPCM {
    /// What the device was set to.
    struct Setup: Equatable {
        var sampleRate: Int
        var channels: Int
        var bufferFrames: Int
        var periodFrames: Int
    }

    let device: String
    private(set) var setup: Setup
    private var handle: OpaquePointer?

    /// Opens `device` for playback and sets hardware and software parameters.
    ///
    /// - Parameters:
    ///   - sampleRate, channels: the format written (S16, interleaved).
    ///   - bufferTime, periodTime: wanted buffer and period lengths in seconds (ALSA picks the nearest).
    ///   - allowsResampling: whether ALSA may resample to a rate the hardware plays.
    init(
        device: String, sampleRate: Int, channels: Int, bufferTime: Double, periodTime: Double,
        allowsResampling: Bool
    ) throws(ALSAError) {
        ALSACalls.beginCall()
        self.device = device
        var pcm: OpaquePointer?
        try ALSACalls.check(
            snd_pcm_open(&pcm, device, SND_PCM_STREAM_PLAYBACK, 0), "snd_pcm_open", device: device)
        handle = pcm
        setup = Setup(sampleRate: sampleRate, channels: channels, bufferFrames: 0, periodFrames: 0)
        do {
            setup = try Self.configure(
                pcm!, device: device, sampleRate: sampleRate, channels: channels, bufferTime: bufferTime,
                periodTime: periodTime, allowsResampling: allowsResampling)
        } catch {
            snd_pcm_close(pcm)
            handle = nil
            throw error
        }
    }

    deinit {
        if let handle { snd_pcm_close(handle) }
    }

    private static func configure(
        _ pcm: OpaquePointer, device: String, sampleRate: Int, channels: Int, bufferTime: Double,
        periodTime: Double, allowsResampling: Bool
    ) throws(ALSAError) -> Setup {
        var hw: OpaquePointer?
        try ALSACalls.check(snd_pcm_hw_params_malloc(&hw), "snd_pcm_hw_params_malloc", device: device)
        defer { snd_pcm_hw_params_free(hw) }
        func step(_ result: Int32, _ name: String) throws(ALSAError) {
            try ALSACalls.check(result, name, device: device)
        }
        try step(snd_pcm_hw_params_any(pcm, hw), "snd_pcm_hw_params_any")
        try step(
            snd_pcm_hw_params_set_rate_resample(pcm, hw, allowsResampling ? 1 : 0),
            "snd_pcm_hw_params_set_rate_resample")
        try step(
            snd_pcm_hw_params_set_access(pcm, hw, SND_PCM_ACCESS_RW_INTERLEAVED),
            "snd_pcm_hw_params_set_access")
        try step(snd_pcm_hw_params_set_format(pcm, hw, SND_PCM_FORMAT_S16_LE), "snd_pcm_hw_params_set_format")
        try step(snd_pcm_hw_params_set_channels(pcm, hw, UInt32(channels)), "snd_pcm_hw_params_set_channels")
        var rate = UInt32(sampleRate)
        var direction: Int32 = 0
        try step(
            snd_pcm_hw_params_set_rate_near(pcm, hw, &rate, &direction), "snd_pcm_hw_params_set_rate_near")
        guard Int(rate) == sampleRate else {
            throw ALSAError(
                code: .invalidArgument, operation: "snd_pcm_hw_params_set_rate_near", device: device,
                message: "the device plays \(rate) Hz, not \(sampleRate) Hz (a plughw: device resamples)",
                details: ALSACalls.takeMessages())
        }
        var bufferMicros = UInt32(bufferTime * 1_000_000)
        try step(
            snd_pcm_hw_params_set_buffer_time_near(pcm, hw, &bufferMicros, &direction),
            "snd_pcm_hw_params_set_buffer_time_near")
        var periodMicros = UInt32(periodTime * 1_000_000)
        try step(
            snd_pcm_hw_params_set_period_time_near(pcm, hw, &periodMicros, &direction),
            "snd_pcm_hw_params_set_period_time_near")
        try step(snd_pcm_hw_params(pcm, hw), "snd_pcm_hw_params")
        var bufferFrames: snd_pcm_uframes_t = 0
        var periodFrames: snd_pcm_uframes_t = 0
        try step(snd_pcm_hw_params_get_buffer_size(hw, &bufferFrames), "snd_pcm_hw_params_get_buffer_size")
        try step(
            snd_pcm_hw_params_get_period_size(hw, &periodFrames, &direction),
            "snd_pcm_hw_params_get_period_size")

        var sw: OpaquePointer?
        try step(snd_pcm_sw_params_malloc(&sw), "snd_pcm_sw_params_malloc")
        defer { snd_pcm_sw_params_free(sw) }
        try step(snd_pcm_sw_params_current(pcm, sw), "snd_pcm_sw_params_current")
        // Start on the first period, not when the whole buffer is full: the first sound comes fast.
        try step(
            snd_pcm_sw_params_set_start_threshold(pcm, sw, periodFrames),
            "snd_pcm_sw_params_set_start_threshold")
        try step(snd_pcm_sw_params_set_avail_min(pcm, sw, periodFrames), "snd_pcm_sw_params_set_avail_min")
        try step(snd_pcm_sw_params(pcm, sw), "snd_pcm_sw_params")
        return Setup(
            sampleRate: sampleRate, channels: channels, bufferFrames: Int(bufferFrames),
            periodFrames: Int(periodFrames))
    }

    /// Makes the PCM ready for a new prompt after a drain or drop.
    func prepare() throws(ALSAError) {
        ALSACalls.beginCall()
        guard let handle else { throw closedError("snd_pcm_prepare") }
        let state = snd_pcm_state(handle)
        guard state != SND_PCM_STATE_PREPARED, state != SND_PCM_STATE_RUNNING else { return }
        try ALSACalls.check(snd_pcm_prepare(handle), "snd_pcm_prepare", device: device)
    }

    /// Writes all of `samples` (interleaved frames), blocking while the buffer is full.
    /// Underruns, suspends and interrupted calls are recovered; other errors are thrown.
    func write(_ samples: [Int16]) throws(ALSAError) {
        ALSACalls.beginCall()
        guard let handle else { throw closedError("snd_pcm_writei") }
        let channels = setup.channels
        var failure: ALSAError?
        samples.withUnsafeBufferPointer { buffer in
            var offset = 0
            let frames = buffer.count / channels
            while offset < frames {
                let result = snd_pcm_writei(
                    handle, buffer.baseAddress! + offset * channels, snd_pcm_uframes_t(frames - offset))
                if result >= 0 {
                    offset += result
                    continue
                }
                if result == -Int(EAGAIN) { continue }
                let recovered = snd_pcm_recover(handle, Int32(result), 1)
                if recovered < 0 {
                    failure = ALSACalls.error(Int32(result), "snd_pcm_writei", device: device)
                    return
                }
            }
        }
        if let failure { throw failure }
    }

    /// Waits until everything written has been played.
    func drain() throws(ALSAError) {
        ALSACalls.beginCall()
        guard let handle else { throw closedError("snd_pcm_drain") }
        let result = snd_pcm_drain(handle)
        if result < 0 {
            // An underrun at the very end leaves nothing to play: not a failure.
            if result == -EPIPE || snd_pcm_recover(handle, result, 1) == 0 { return }
            throw ALSACalls.error(result, "snd_pcm_drain", device: device)
        }
    }

    /// Frames written but not yet heard (0 when the PCM is not running).
    func delayFrames() -> Int {
        guard let handle else { return 0 }
        ALSACalls.beginCall()
        var frames: snd_pcm_sframes_t = 0
        guard snd_pcm_delay(handle, &frames) == 0 else { return 0 }
        return max(0, frames)
    }

    /// Closes the PCM (idempotent).
    func close() {
        ALSACalls.beginCall()
        if let handle { snd_pcm_close(handle) }
        handle = nil
    }

    private func closedError(_ operation: String) -> ALSAError {
        ALSAError(
            code: .badState, operation: operation, device: device, message: "the device is closed",
            details: [])
    }
}

extension ALSAError.Code {
    /// `-EPIPE`: the buffer ran empty.
    public static let underrun = Self(rawValue: EPIPE)
    /// `-ESTRPIPE`: the system suspended the device.
    public static let suspended = Self(rawValue: ESTRPIPE)
    /// `-ENODEV`: the device is gone (unplugged).
    public static let noDevice = Self(rawValue: ENODEV)
    /// `-ENOENT`: no such device or configuration name.
    public static let notFound = Self(rawValue: ENOENT)
    /// `-EBUSY`: another program holds the device.
    public static let busy = Self(rawValue: EBUSY)
    /// `-EBADFD`: the device is in the wrong state for the call.
    public static let badState = Self(rawValue: EBADFD)
    /// `-EIO`: input/output error.
    public static let ioError = Self(rawValue: EIO)
    /// `-ENOSPC`: no space left (a file output on a full disk, or `/dev/full`).
    public static let noSpace = Self(rawValue: ENOSPC)
    /// `-EINVAL`: a parameter the device does not accept.
    public static let invalidArgument = Self(rawValue: EINVAL)
    /// `-EAGAIN`: try again.
    public static let tryAgain = Self(rawValue: EAGAIN)
    /// `-EINTR`: interrupted by a signal.
    public static let interrupted = Self(rawValue: EINTR)
    /// `-EACCES` / `-EPERM`: not allowed.
    public static let permissionDenied = Self(rawValue: EACCES)
}
