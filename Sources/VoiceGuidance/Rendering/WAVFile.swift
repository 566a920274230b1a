public import Foundation

/// RIFF/WAVE PCM: mono or multi-channel 16-bit little-endian, read and written whole (RF64 is
/// read too; `StreamingWAVWriter` writes files of any length).
public enum WAVFile {
    /// The bytes of a 16-bit PCM WAV file holding `samples`.
    public static func encode(samples: [Int16], sampleRate: Int, channels: Int = 1) -> Data {
        let dataBytes = samples.count * 2
        var data = Data(capacity: 44 + dataBytes)
        func append32(_ value: UInt32) {
            withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
        }
        func append16(_ value: UInt16) {
            withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
        }
        data.append(contentsOf: Array("RIFF".utf8))
        append32(UInt32(36 + dataBytes))
        data.append(contentsOf: Array("WAVE".utf8))
        data.append(contentsOf: Array("fmt ".utf8))
        append32(16)
        append16(1)  // PCM
        append16(UInt16(channels))
        append32(UInt32(sampleRate))
        append32(UInt32(sampleRate * channels * 2))
        append16(UInt16(channels * 2))
        append16(16)
        data.append(contentsOf: Array("data".utf8))
        append32(UInt32(dataBytes))
        samples.withUnsafeBufferPointer { buffer in
            #if _endian(little)
                data.append(
                    UnsafeBufferPointer(
                        start: UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: UInt8.self),
                        count: dataBytes))
            #else
                for sample in buffer { append16(UInt16(bitPattern: sample)) }
            #endif
        }
        return data
    }

    /// Writes a WAV file atomically (see ``AtomicFile``): a crash or a full disk never leaves
    /// half a file under the final name.
    ///
    /// - Throws: `WAVError.io` naming the path.
    public static func write(samples: [Int16], sampleRate: Int, channels: Int = 1, to url: URL) throws {
        try AtomicFile.write(encode(samples: samples, sampleRate: sampleRate, channels: channels), to: url)
    }

    /// Writes rendered audio as a mono WAV file, atomically.
    public static func write(_ audio: RenderedAudio, to url: URL) throws {
        try write(samples: audio.samples, sampleRate: audio.sampleRate, to: url)
    }

    /// A decoded WAV file.
    public struct Contents: Sendable, Equatable {
        public var sampleRate: Int
        public var channels: Int
        public var bitsPerSample: Int
        /// Interleaved samples.
        public var samples: [Int16]

        /// Length in seconds.
        public var duration: Double { Double(samples.count / max(channels, 1)) / Double(sampleRate) }
    }

    /// Decodes a 16-bit PCM WAV file (any chunk order; unknown chunks skipped).
    ///
    /// - Throws: `WAVError.invalid` saying what is wrong.
    public static func decode(_ data: Data) throws -> Contents {
        let bytes = [UInt8](data)
        func u32(_ at: Int) -> UInt32 {
            UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(
                bytes[at + 3]) << 24
        }
        func u16(_ at: Int) -> UInt16 { UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 }
        func tag(_ at: Int) -> String { String(decoding: bytes[at..<at + 4], as: UTF8.self) }
        guard bytes.count >= 12, tag(0) == "RIFF" || tag(0) == "RF64", tag(8) == "WAVE" else {
            throw WAVError(.invalid, "not a RIFF/WAVE file")
        }
        var offset = 12
        var format: (channels: Int, rate: Int, bits: Int)?
        var ds64DataSize: Int?
        while offset + 8 <= bytes.count {
            let id = tag(offset)
            var size = Int(u32(offset + 4))
            let body = offset + 8
            if id == "ds64", size >= 24, body + 24 <= bytes.count {
                // RF64 (EBU Tech 3306): the data chunk's 64-bit size (low 32 bits are enough here).
                ds64DataSize = Int(u32(body + 8)) | Int(u32(body + 12)) << 32
            }
            if id == "data", size == Int(UInt32.max), let ds64DataSize { size = ds64DataSize }
            if id == "fmt " {
                guard size >= 16, body + 16 <= bytes.count else {
                    throw WAVError(.invalid, "short fmt chunk")
                }
                guard u16(body) == 1 || u16(body) == 0xFFFE else {
                    throw WAVError(.invalid, "not PCM (format \(u16(body)))")
                }
                format = (Int(u16(body + 2)), Int(u32(body + 4)), Int(u16(body + 14)))
            } else if id == "data" {
                guard let format else { throw WAVError(.invalid, "data chunk before fmt chunk") }
                guard format.bits == 16 else {
                    throw WAVError(.invalid, "\(format.bits)-bit samples; only 16-bit is read")
                }
                let end = min(body + size, bytes.count)
                let count = (end - body) / 2
                var samples = [Int16](repeating: 0, count: count)
                for index in 0..<count {
                    samples[index] = Int16(bitPattern: u16(body + 2 * index))
                }
                return Contents(
                    sampleRate: format.rate, channels: format.channels, bitsPerSample: 16, samples: samples)
            }
            offset = body + size + (size & 1)
        }
        throw WAVError(.invalid, "no data chunk")
    }

    /// Reads and decodes a WAV file.
    public static func read(from url: URL) throws -> Contents {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw WAVError(.io, "cannot read \(url.path): \(error.localizedDescription)")
        }
        return try decode(data)
    }
}

/// A WAV file that cannot be read or written.
public struct WAVError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable { case io, invalid }
    public var kind: Kind
    public var message: String
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }
    public var description: String { message }
}
