import Foundation

/// Writes a 16-bit PCM WAV file piece by piece into a temporary file beside its target, then
/// completes the header — RIFF, or RF64 (EBU Tech 3306) past `riffLimit` data bytes — and puts
/// the file in place (`AtomicFile.commit`).
///
/// The header keeps a 28-byte `JUNK` chunk after `WAVE`; RF64 turns it into the `ds64` chunk
/// that holds the 64-bit sizes.
public final class StreamingWAVWriter {
    /// The most data bytes a RIFF header can describe (its 32-bit size counts the header too).
    public static let riffDataLimit = UInt64(UInt32.max) - UInt64(headerSize - 8)
    static let headerSize = 80

    /// The file's final path.
    public let path: String
    public let format: AudioFormat
    private let riffLimit: UInt64
    private let temporary: String
    private let handle: FileHandle
    private(set) var dataBytes: UInt64 = 0

    /// Creates the temporary file and writes a provisional header.
    ///
    /// - Throws: `WAVError.io` naming the path.
    public init(path: String, format: AudioFormat, riffLimit: UInt64 = riffDataLimit) throws {
        self.path = path
        self.format = format
        self.riffLimit = min(riffLimit, Self.riffDataLimit)
        temporary = AtomicFile.temporaryPath(for: path)
        guard FileManager.default.createFile(atPath: temporary, contents: nil),
            let handle = FileHandle(forWritingAtPath: temporary)
        else {
            throw WAVError(.io, "cannot write \(path): cannot create a file in its folder")
        }
        self.handle = handle
        do {
            try handle.write(contentsOf: header(isRF64: false))
        } catch {
            discard()
            throw WAVError(.io, "cannot write \(path): \(error.localizedDescription)")
        }
    }

    /// Appends interleaved samples.
    ///
    /// - Throws: `WAVError.io` naming the path (the temporary file is removed).
    public func append(_ samples: [Int16]) throws {
        guard !samples.isEmpty else { return }
        let bytes = samples.withUnsafeBufferPointer { buffer in
            #if _endian(little)
                Data(buffer: buffer)
            #else
                Data(buffer.flatMap { withUnsafeBytes(of: $0.littleEndian) { Array($0) } })
            #endif
        }
        do {
            try handle.write(contentsOf: bytes)
        } catch {
            discard()
            throw WAVError(.io, "cannot write \(path): \(error.localizedDescription)")
        }
        dataBytes += UInt64(bytes.count)
    }

    /// Writes the final header and puts the file under its name.
    ///
    /// - Throws: `WAVError.io` naming the path (the temporary file is removed).
    public func complete() throws {
        do {
            try handle.seek(toOffset: 0)
            try handle.write(contentsOf: header(isRF64: dataBytes > riffLimit))
            try handle.close()
        } catch {
            discard()
            throw WAVError(.io, "cannot write \(path): \(error.localizedDescription)")
        }
        try AtomicFile.commit(temporary, to: path)
    }

    private func discard() {
        try? handle.close()
        try? FileManager.default.removeItem(atPath: temporary)
    }

    /// The 80-byte header for the data written so far.
    private func header(isRF64: Bool) -> Data {
        var data = Data(capacity: Self.headerSize)
        func tag(_ text: String) { data.append(contentsOf: Array(text.utf8)) }
        func u16(_ value: UInt16) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        func u32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        func u64(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        let riffSize = UInt64(Self.headerSize - 8) + dataBytes
        let frameBytes = UInt64(format.channels * 2)
        tag(isRF64 ? "RF64" : "RIFF")
        u32(isRF64 ? UInt32.max : UInt32(riffSize))
        tag("WAVE")
        tag(isRF64 ? "ds64" : "JUNK")
        u32(28)
        u64(isRF64 ? riffSize : 0)
        u64(isRF64 ? dataBytes : 0)
        u64(isRF64 ? dataBytes / frameBytes : 0)
        u32(0)
        tag("fmt ")
        u32(16)
        u16(1)
        u16(UInt16(clamping: format.channels))
        u32(UInt32(clamping: format.sampleRate))
        u32(UInt32(clamping: format.sampleRate * format.channels * 2))
        u16(UInt16(clamping: format.channels * 2))
        u16(16)
        tag("data")
        u32(isRF64 ? UInt32.max : UInt32(dataBytes))
        return data
    }
}
