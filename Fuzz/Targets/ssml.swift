// Fuzz target: SSML bytes through the parser (lenient and strict) and the text normaliser of
// every language, as `check`, `render` and `explain` read a user's file.
// fuzz-seeds: ssml-samples
// fuzz-max-len: 4096
// fuzz-timeout: 10
// fuzz-dict: Fuzz/Dictionaries/ssml.dict

import Foundation

/// The parsers and normalisers, made once.
private let parsers = [SSMLParser(), SSMLParser(isStrict: true)]
private let normalizers = ["en-US", "en-GB", "fr-FR", "de-DE", "es-ES"].map { TextNormalizer(language: $0) }

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSSML(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    for parser in parsers {
        guard let utterance = try? parser.parse(data: data) else { continue }
        for normalizer in normalizers {
            let normalized = normalizer.normalize(utterance)
            _ = normalized.plainText
        }
    }
    return 0
}
