// additions.swift: the code points Unicode assigned after 14.0 (the version of Python's
// unicodedata on Debian 12, which scan.py takes its characters from) that this Swift toolchain's
// tables know, as ranges: what the engine would otherwise hand to eSpeak unscanned.
//
//   swiftc -O additions.swift -o additions && ./additions > logs/additions.txt
//
// Skipped as scan.py skips them: unassigned, surrogates, private use, controls, format
// characters and separators. The first line names the newest version the tables know, which
// table.py writes into the engine as the last one scanned.

var ranges: [ClosedRange<UInt32>] = []
var newest = (major: 14, minor: 0)
for value in UInt32(0)...0x10FFFF {
    guard let scalar = Unicode.Scalar(value), let age = scalar.properties.age else { continue }
    if age > newest { newest = age }
    switch scalar.properties.generalCategory {
    case .unassigned, .surrogate, .privateUse, .control, .format, .spaceSeparator, .lineSeparator,
        .paragraphSeparator:
        continue
    default:
        guard age > (14, 0) else { continue }
        if let last = ranges.last, last.upperBound + 1 == value {
            ranges[ranges.count - 1] = last.lowerBound...value
        } else {
            ranges.append(value...value)
        }
    }
}
func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}
let count = ranges.reduce(0) { $0 + $1.count }
print("# assigned after Unicode 14.0, up to Unicode \(newest.major).\(newest.minor): \(count) code points in \(ranges.count) ranges")
for range in ranges { print("\(hex(range.lowerBound))-\(hex(range.upperBound))") }
