import Foundation

/// Finds the first byte that breaks UTF-8, and where it is as a line and column.
enum UTF8Validation {
    struct InvalidByte: Sendable, Equatable {
        var byte: UInt8
        /// 0-based byte offset of the byte that starts the bad sequence.
        var offset: Int
        /// Why the sequence is bad ("cut short by 0x3C at offset 4"), or empty for a lone bad byte.
        var reason: String = ""
        /// Line and column (Unicode scalars) of the character the bad byte would start or continue.
        var location: SourceLocation
    }

    /// The first invalid byte (overlong forms, surrogates and values above U+10FFFF included),
    /// or nil when `data` is valid UTF-8.
    ///
    /// - Complexity: O(n).
    static func firstInvalidByte(in data: Data) -> InvalidByte? {
        data.withUnsafeBytes { raw -> InvalidByte? in
            let bytes = raw.bindMemory(to: UInt8.self)
            var index = 0
            var line = 1
            var column = 1
            while index < bytes.count {
                let lead = bytes[index]
                let start = index
                let here = SourceLocation(line: line, column: column)
                func invalid(_ reason: String = "") -> InvalidByte {
                    InvalidByte(byte: bytes[start], offset: start, reason: reason, location: here)
                }
                if lead < 0x80 {
                    index += 1
                    if lead == 0x0A {
                        if start == 0 || bytes[start - 1] != 0x0D {
                            line += 1
                            column = 1
                        }
                    } else if lead == 0x0D {
                        line += 1
                        column = 1
                    } else {
                        column += 1
                    }
                    continue
                }
                let count: Int
                var low: UInt8 = 0x80
                var high: UInt8 = 0xBF
                switch lead {
                case 0xC2...0xDF: count = 1
                case 0xE0:
                    count = 2
                    low = 0xA0
                case 0xE1...0xEC, 0xEE...0xEF: count = 2
                case 0xED:
                    count = 2
                    high = 0x9F
                case 0xF0:
                    count = 3
                    low = 0x90
                case 0xF1...0xF3: count = 3
                case 0xF4:
                    count = 3
                    high = 0x8F
                default: return invalid()
                }
                for step in 1...count {
                    let offset = start + step
                    guard offset < bytes.count else {
                        return invalid("a \(count + 1)-byte sequence cut short by the end of the input")
                    }
                    let byte = bytes[offset]
                    guard (0x80...0xBF).contains(byte) else {
                        return invalid(
                            "a \(count + 1)-byte sequence cut short by \(hex(byte)) at offset \(offset)")
                    }
                    guard step > 1 || (low...high).contains(byte) else {
                        return invalid(
                            "\(hex(lead)) \(hex(byte)) starts an overlong form, a surrogate or a value above U+10FFFF"
                        )
                    }
                }
                index = start + count + 1
                column += 1
            }
            return nil
        }
    }

    /// `0xC3`.
    static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return "0x" + (digits.count == 1 ? "0" : "") + digits
    }
}
