// Every call into libpulse goes through this file; nothing else imports CPulse.
internal import CPulse
import Foundation
import VoiceGuidance

/// What every libpulse callback does: wake the thread waiting on the main loop, which then
/// looks at the state it waits for.
private func wakeWaiter(_ loop: UnsafeMutableRawPointer?) {
    guard let loop else { return }
    pa_threaded_mainloop_signal(OpaquePointer(loop), 0)
}

private let contextStateChanged: pa_context_notify_cb_t = { _, loop in wakeWaiter(loop) }
private let streamStateChanged: pa_stream_notify_cb_t = { _, loop in wakeWaiter(loop) }
private let streamWantsData: pa_stream_request_cb_t = { _, _, loop in wakeWaiter(loop) }
private let operationDone: pa_stream_success_cb_t = { _, _, loop in wakeWaiter(loop) }
private let timerFired: pa_time_event_cb_t = { _, _, _, loop in wakeWaiter(loop) }

/// Thin, checked helpers over libpulse.
enum PulseCalls {
    /// The `PulseError` for a libpulse error code, with `pa_strerror`'s text.
    static func error(_ code: Int32, _ operation: String, server: String) -> PulseError {
        let text = pa_strerror(code).map { String(cString: $0) } ?? "error \(code)"
        return PulseError(
            code: PulseError.Code(rawValue: code), operation: operation, server: server, message: text)
    }

    /// A `PulseError` of our own (a timeout, a refused format).
    static func failure(_ code: PulseError.Code, _ operation: String, server: String, _ message: String)
        -> PulseError
    {
        PulseError(code: code, operation: operation, server: server, message: message)
    }

    /// Writes `properties` into a new proplist; the caller frees it.
    static func proplist(_ properties: [String: String]) -> OpaquePointer? {
        let list = pa_proplist_new()
        for (key, value) in properties.sorted(by: { $0.key < $1.key }) {
            _ = pa_proplist_sets(list, key, value)
        }
        return list
    }
}

/// A connection to a sound server that speaks PulseAudio's protocol (PulseAudio itself, or
/// PipeWire's pipewire-pulse): a threaded main loop and a context. Every method takes the main
/// loop's lock itself; use it from one thread at a time.
final class PulseConnection {
    /// The server as asked for, for messages.
    let server: String
    private let loop: OpaquePointer
    private let context: OpaquePointer
    private var isClosed = false
    /// Streams still open, closed before the connection goes (they need its main loop).
    private var streams: [ObjectIdentifier: Weak] = [:]

    private struct Weak {
        weak var stream: PulseStream?
    }

    /// Connects to `server` (nil: the default one: `PULSE_SERVER`, then the user's socket),
    /// never starting a server, and waits up to `timeout` seconds for it to answer.
    init(server: String?, properties: [String: String], timeout: Double) throws(PulseError) {
        let label = server ?? "(default)"
        self.server = label
        guard let loop = pa_threaded_mainloop_new() else {
            throw PulseCalls.failure(
                .internalError, "pa_threaded_mainloop_new", server: label, "out of memory")
        }
        let list = PulseCalls.proplist(properties)
        defer { pa_proplist_free(list) }
        let name = properties[PA_PROP_APPLICATION_NAME] ?? "VoiceGuidance"
        guard let context = pa_context_new_with_proplist(pa_threaded_mainloop_get_api(loop), name, list)
        else {
            pa_threaded_mainloop_free(loop)
            throw PulseCalls.failure(.internalError, "pa_context_new", server: label, "out of memory")
        }
        self.loop = loop
        self.context = context
        pa_context_set_state_callback(context, contextStateChanged, UnsafeMutableRawPointer(loop))
        guard pa_threaded_mainloop_start(loop) >= 0 else {
            pa_context_unref(context)
            pa_threaded_mainloop_free(loop)
            throw PulseCalls.failure(.internalError, "pa_threaded_mainloop_start", server: label, "no thread")
        }
        do throws(PulseError) {
            try connect(server, timeout: timeout)
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    private func connect(_ server: String?, timeout: Double) throws(PulseError) {
        pa_threaded_mainloop_lock(loop)
        defer { pa_threaded_mainloop_unlock(loop) }
        guard pa_context_connect(context, server, PA_CONTEXT_NOAUTOSPAWN, nil) >= 0 else {
            throw contextError("pa_context_connect")
        }
        let state = waitLocked(timeout: timeout) {
            let state = pa_context_get_state(self.context)
            return state == PA_CONTEXT_READY || state == PA_CONTEXT_FAILED || state == PA_CONTEXT_TERMINATED
        }
        guard state else {
            throw PulseCalls.failure(
                .timeout, "pa_context_connect", server: self.server, "no answer in \(timeout) s")
        }
        guard pa_context_get_state(context) == PA_CONTEXT_READY else {
            throw contextError("pa_context_connect")
        }
    }

    /// True while the server is connected.
    var isReady: Bool {
        guard !isClosed else { return false }
        pa_threaded_mainloop_lock(loop)
        defer { pa_threaded_mainloop_unlock(loop) }
        return pa_context_get_state(context) == PA_CONTEXT_READY
    }

    /// The error the context reports now.
    fileprivate func contextError(_ operation: String) -> PulseError {
        PulseCalls.error(pa_context_errno(context), operation, server: server)
    }

    /// Waits (the main loop's lock held) until `done` is true, or `timeout` seconds have passed
    /// (then returns false). Every callback wakes the waiter; a timer wakes it at the timeout.
    fileprivate func waitLocked(timeout: Double, until done: () -> Bool) -> Bool {
        if done() { return true }
        let deadline = ContinuousClock.now + .milliseconds(Int64((max(0, timeout) * 1000).rounded()))
        let micros = pa_usec_t(max(0, timeout) * 1_000_000)
        let timer = pa_context_rttime_new(
            context, pa_rtclock_now() + micros, timerFired, UnsafeMutableRawPointer(loop))
        defer {
            if let timer, let api = pa_threaded_mainloop_get_api(loop) { api.pointee.time_free(timer) }
        }
        while !done() {
            if ContinuousClock.now >= deadline { return false }
            pa_threaded_mainloop_wait(loop)
        }
        return true
    }

    /// Runs `body` with the main loop's lock held.
    fileprivate func locked<T>(_ body: () throws(PulseError) -> T) throws(PulseError) -> T {
        pa_threaded_mainloop_lock(loop)
        defer { pa_threaded_mainloop_unlock(loop) }
        return try body()
    }

    /// Opens a playback stream with `properties` (media.role, media.name) on `device` (nil: the
    /// server's default sink), holding about `targetLatency` seconds.
    func openStream(
        format: AudioFormat, properties: [String: String], device: String?, targetLatency: Double,
        timeout: Double
    ) throws(PulseError) -> PulseStream {
        try locked { () throws(PulseError) -> PulseStream in
            guard !isClosed, pa_context_get_state(context) == PA_CONTEXT_READY else {
                throw contextError("pa_stream_new")
            }
            var spec = pa_sample_spec(
                format: PA_SAMPLE_S16LE, rate: UInt32(clamping: format.sampleRate),
                channels: UInt8(clamping: format.channels))
            guard pa_sample_spec_valid(&spec) != 0 else {
                throw PulseCalls.failure(
                    .invalidArgument, "pa_stream_new", server: server, "unusable format \(format)")
            }
            let list = PulseCalls.proplist(properties)
            defer { pa_proplist_free(list) }
            let name = properties[PA_PROP_MEDIA_NAME] ?? "prompt"
            guard let stream = pa_stream_new_with_proplist(context, name, &spec, nil, list) else {
                throw contextError("pa_stream_new")
            }
            let opened = PulseStream(connection: self, loop: loop, stream: stream, spec: spec)
            try opened.connectLocked(device: device, targetLatency: targetLatency, timeout: timeout)
            streams = streams.filter { $0.value.stream != nil }
            streams[ObjectIdentifier(opened)] = Weak(stream: opened)
            return opened
        }
    }

    /// Disconnects and frees everything (idempotent).
    func close() {
        guard !isClosed else { return }
        for entry in streams.values { entry.stream?.close() }
        streams = [:]
        isClosed = true
        pa_threaded_mainloop_lock(loop)
        pa_context_set_state_callback(context, nil, nil)
        pa_context_disconnect(context)
        pa_context_unref(context)
        pa_threaded_mainloop_unlock(loop)
        pa_threaded_mainloop_stop(loop)
        pa_threaded_mainloop_free(loop)
    }
}

/// One playback stream (a sink input on the server): S16 frames written with back-pressure.
/// Use it from one thread at a time; close it before its connection.
final class PulseStream {
    private let connection: PulseConnection
    private let loop: OpaquePointer
    private var stream: OpaquePointer?
    private var spec: pa_sample_spec

    fileprivate init(
        connection: PulseConnection, loop: OpaquePointer, stream: OpaquePointer, spec: pa_sample_spec
    ) {
        self.connection = connection
        self.loop = loop
        self.stream = stream
        self.spec = spec
    }

    deinit { close() }

    private var server: String { connection.server }

    fileprivate func connectLocked(device: String?, targetLatency: Double, timeout: Double) throws(PulseError)
    {
        guard let stream else { return }
        pa_stream_set_state_callback(stream, streamStateChanged, UnsafeMutableRawPointer(loop))
        pa_stream_set_write_callback(stream, streamWantsData, UnsafeMutableRawPointer(loop))
        let none = UInt32.max
        let target = pa_usec_to_bytes(pa_usec_t(max(0.001, targetLatency) * 1_000_000), &spec)
        var attributes = pa_buffer_attr(
            maxlength: none, tlength: UInt32(clamping: target), prebuf: none, minreq: none, fragsize: none)
        let flags = pa_stream_flags_t(
            rawValue: PA_STREAM_INTERPOLATE_TIMING.rawValue | PA_STREAM_AUTO_TIMING_UPDATE.rawValue
                | PA_STREAM_ADJUST_LATENCY.rawValue)
        guard pa_stream_connect_playback(stream, device, &attributes, flags, nil, nil) >= 0 else {
            let error = connection.contextError("pa_stream_connect_playback")
            releaseLocked()
            throw error
        }
        let settled = connection.waitLocked(timeout: timeout) {
            let state = pa_stream_get_state(stream)
            return state == PA_STREAM_READY || state == PA_STREAM_FAILED || state == PA_STREAM_TERMINATED
        }
        guard settled, pa_stream_get_state(stream) == PA_STREAM_READY else {
            let error =
                settled
                ? connection.contextError("pa_stream_connect_playback")
                : PulseCalls.failure(
                    .timeout, "pa_stream_connect_playback", server: server, "no answer in \(timeout) s")
            releaseLocked()
            throw error
        }
    }

    /// Writes all of `samples` (interleaved frames), waiting while the server's buffer is full,
    /// at most `timeout` seconds for room.
    func write(_ samples: [Int16], timeout: Double) throws(PulseError) {
        pa_threaded_mainloop_lock(loop)
        defer { pa_threaded_mainloop_unlock(loop) }
        let frameBytes = MemoryLayout<Int16>.size * Int(spec.channels)
        let total = samples.count * MemoryLayout<Int16>.size
        var offset = 0
        var failure: PulseError?
        samples.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            do throws(PulseError) {
                while offset < total {
                    let room = try writableLocked(timeout: timeout)
                    let count = min(total - offset, room / frameBytes * frameBytes)
                    guard count > 0 else { continue }
                    guard let stream,
                        pa_stream_write(stream, base + offset, count, nil, 0, PA_SEEK_RELATIVE) >= 0
                    else { throw connection.contextError("pa_stream_write") }
                    offset += count
                }
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    /// Bytes the server takes now, waiting up to `timeout` seconds for some.
    private func writableLocked(timeout: Double) throws(PulseError) -> Int {
        guard let stream else { throw closedError("pa_stream_write") }
        var room = 0
        let answered = connection.waitLocked(timeout: timeout) {
            guard pa_stream_get_state(stream) == PA_STREAM_READY else { return true }
            room = pa_stream_writable_size(stream)
            return room != 0
        }
        guard pa_stream_get_state(stream) == PA_STREAM_READY, room != Int(bitPattern: UInt.max) else {
            throw connection.contextError("pa_stream_writable_size")
        }
        guard answered else {
            throw PulseCalls.failure(
                .timeout, "pa_stream_write", server: server, "the server took nothing for \(timeout) s")
        }
        return room
    }

    /// Waits until everything written has been played (at most `timeout` seconds).
    func drain(timeout: Double) throws(PulseError) {
        pa_threaded_mainloop_lock(loop)
        defer { pa_threaded_mainloop_unlock(loop) }
        guard let stream else { throw closedError("pa_stream_drain") }
        guard let operation = pa_stream_drain(stream, operationDone, UnsafeMutableRawPointer(loop)) else {
            throw connection.contextError("pa_stream_drain")
        }
        defer { pa_operation_unref(operation) }
        let finished = connection.waitLocked(timeout: timeout) {
            pa_operation_get_state(operation) != PA_OPERATION_RUNNING
                || pa_stream_get_state(stream) != PA_STREAM_READY
        }
        guard finished else {
            pa_operation_cancel(operation)
            throw PulseCalls.failure(
                .timeout, "pa_stream_drain", server: server, "not played out in \(timeout) s")
        }
        guard pa_stream_get_state(stream) == PA_STREAM_READY else {
            throw connection.contextError("pa_stream_drain")
        }
    }

    /// Seconds between writing a sample now and hearing it, as the server reports it (0 before
    /// its first timing report).
    var latency: Double {
        pa_threaded_mainloop_lock(loop)
        defer { pa_threaded_mainloop_unlock(loop) }
        guard let stream else { return 0 }
        var micros: pa_usec_t = 0
        var negative: Int32 = 0
        guard pa_stream_get_latency(stream, &micros, &negative) == 0, negative == 0 else { return 0 }
        return Double(micros) / 1_000_000
    }

    /// The buffer the server granted, in seconds (its target length).
    var bufferTime: Double {
        pa_threaded_mainloop_lock(loop)
        defer { pa_threaded_mainloop_unlock(loop) }
        guard let stream, let attributes = pa_stream_get_buffer_attr(stream) else { return 0 }
        return Double(pa_bytes_to_usec(UInt64(attributes.pointee.tlength), &spec)) / 1_000_000
    }

    /// Disconnects the stream: the server removes it, so other streams are no longer ducked.
    func close() {
        guard stream != nil else { return }
        pa_threaded_mainloop_lock(loop)
        releaseLocked()
        pa_threaded_mainloop_unlock(loop)
    }

    private func releaseLocked() {
        guard let stream else { return }
        pa_stream_set_state_callback(stream, nil, nil)
        pa_stream_set_write_callback(stream, nil, nil)
        pa_stream_disconnect(stream)
        pa_stream_unref(stream)
        self.stream = nil
    }

    private func closedError(_ operation: String) -> PulseError {
        PulseCalls.failure(.badState, operation, server: server, "the stream is closed")
    }
}

extension PulseError.Code {
    /// `PA_ERR_ACCESS`: access denied.
    public static let accessDenied = Self(rawValue: Int32(PA_ERR_ACCESS.rawValue))
    /// `PA_ERR_CONNECTIONREFUSED`: no server at that address.
    public static let connectionRefused = Self(rawValue: Int32(PA_ERR_CONNECTIONREFUSED.rawValue))
    /// `PA_ERR_CONNECTIONTERMINATED`: the server went away.
    public static let connectionTerminated = Self(rawValue: Int32(PA_ERR_CONNECTIONTERMINATED.rawValue))
    /// `PA_ERR_TIMEOUT`: no answer in time.
    public static let timeout = Self(rawValue: Int32(PA_ERR_TIMEOUT.rawValue))
    /// `PA_ERR_NOENTITY`: no such sink.
    public static let noEntity = Self(rawValue: Int32(PA_ERR_NOENTITY.rawValue))
    /// `PA_ERR_INVALID`: a parameter the server does not accept.
    public static let invalidArgument = Self(rawValue: Int32(PA_ERR_INVALID.rawValue))
    /// `PA_ERR_BADSTATE`: the stream or context is in the wrong state.
    public static let badState = Self(rawValue: Int32(PA_ERR_BADSTATE.rawValue))
    /// `PA_ERR_INTERNAL`: libpulse could not set itself up.
    public static let internalError = Self(rawValue: Int32(PA_ERR_INTERNAL.rawValue))
}
