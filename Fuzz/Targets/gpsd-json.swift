// libFuzzer target: gpsd JSON report lines into positions, then through the fix filter.
// Compiled together with Sources/VoiceGuidance/**/*.swift (one module, no import).

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGPSDJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var lines = LineBuffer(maximumLength: GPSDReader.maximumLineLength)
    var reader = GPSDReader()
    var filter = FixFilter()
    var all = lines.append(UnsafeBufferPointer(start: data, count: size))
    if let last = lines.finish() { all.append(last) }
    for line in all {
        if let position = reader.read(line: Substring(line)) { _ = filter.accept(position) }
    }
    return 0
}
