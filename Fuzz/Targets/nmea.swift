// libFuzzer target: NMEA 0183 sentences into positions, then through the fix filter.
// Compiled together with Sources/VoiceGuidance/**/*.swift (one module, no import).

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNMEA(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    var lines = LineBuffer(maximumLength: 512)
    var reader = NMEAReader()
    var filter = FixFilter()
    var positions: [Position] = []
    for line in lines.append(bytes) { positions += reader.read(line: Substring(line)) }
    if let last = lines.finish() { positions += reader.read(line: Substring(last)) }
    positions += reader.finish()
    for position in positions { _ = filter.accept(position) }
    precondition(reader.statistics.fixes == positions.count)
    return 0
}
