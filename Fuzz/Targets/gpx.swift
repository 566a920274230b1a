// libFuzzer target: GPX 1.1 documents into positions, then through the fix filter.
// Compiled together with Sources/VoiceGuidance/**/*.swift (one module, no import).

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGPX(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    var reader = GPXReader()
    var filter = FixFilter()
    let positions = reader.read(text: text)
    for position in positions { _ = filter.accept(position) }
    precondition(reader.statistics.fixes == positions.count)
    return 0
}
