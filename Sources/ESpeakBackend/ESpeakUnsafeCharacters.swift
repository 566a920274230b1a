/// The characters libespeak-ng 1.51 reads freed memory on, voice by voice, and the voices checked
/// for it.
///
/// eSpeak NG speaks a letter of another alphabet (Armenian, Georgian, the Indic scripts, the Greek
/// symbols) by switching to that alphabet's language (`espeak-ng -x` shows `(hy)`, `(ka)`); for
/// some of them, which depend on the voice, the library then reads a translator it has freed
/// (AddressSanitizer and valgrind: heap-use-after-free in its dictionary lookup). That can crash
/// the process or speak garbage. Measured by `Tools/espeak-scan` under valgrind with each
/// character alone (a lone letter faults as the last word of a clause: the Hangul syllable 아
/// with fr and de, U+10FB with en-us), for the voices of the profiles (en, en-us, fr, de, es):
/// every character Unicode assigns up to ``scannedUnicodeVersion`` (17.0, Swift 6.3's tables)
/// but the private use areas (none faults in CJK or the supplementary planes): ``scanned``. A
/// code point that version has not assigned never reaches eSpeak (U+0CDC, Kannada, assigned in
/// 17.0, faults with en-us: a newer toolchain's characters were never scanned).
///
/// A voice not scanned is kept from every character a scanned voice faults on, except its own
/// alphabet's (``ownAlphabets``; each of those voices was scanned on its own alphabet, character
/// by character, and is kept from what it faults on there, ``ownFaults``: Western Armenian on 19
/// Armenian letters and signs), and is selected only if it spoke the survey's text clean that
/// way (``surveyedVoices``: all 131 voices of Debian 12's eSpeak NG did); a voice installed
/// later, which nobody checked, is not.
enum ESpeakUnsafeCharacters {
    /// What one voice is kept from: the ranges it faults on, less those of its own alphabet.
    struct Rule: Sendable {
        var unsafe: [ClosedRange<UInt32>]
        var own: [ClosedRange<UInt32>] = []
        /// What the voice faults on in its own alphabet all the same (``ownFaults``).
        var ownUnsafe: [ClosedRange<UInt32>] = []
        /// The newest Unicode version whose characters were scanned: a code point assigned
        /// later (a newer toolchain's tables), like one not assigned at all, is unsafe.
        var scannedVersion: Unicode.Version = scannedUnicodeVersion

        /// True when `scalar` must not reach eSpeak with this rule's voice.
        func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
            let value = scalar.value
            if value < lowestUnsafe { return false }
            if contains(value, unsafeWithAnyVoice) { return true }
            guard let age = scalar.properties.age, age <= scannedVersion else { return true }
            if contains(value, own) { return contains(value, ownUnsafe) }
            return contains(value, unsafe)
        }

        /// True when `scalar` is a letter eSpeak speaks by switching to another language with
        /// this rule's voice: one of ``switchedAlphabets`` that is not the voice's own.
        func isSwitched(_ scalar: Unicode.Scalar) -> Bool {
            let value = scalar.value
            guard value >= 0x370, contains(value, switchedAlphabets), !contains(value, own) else {
                return false
            }
            return scalar.properties.isAlphabetic
        }
    }

    /// The rule for the voice `voice` (an eSpeak voice name, as selected: `en-us+f3`, `gmw/de`;
    /// nil: any voice): a scanned language's own table, else every scanned voice's ranges but
    /// the voice's own alphabet, of which only what it faults on itself (``ownFaults``).
    static func rule(forVoice voice: String?) -> Rule {
        guard let voice else { return Rule(unsafe: union) }
        let language = language(ofVoice: voice)
        if let ranges = scanned[language] { return Rule(unsafe: ranges) }
        return Rule(unsafe: union, own: ownAlphabets[language] ?? [], ownUnsafe: ownFaults[language] ?? [])
    }

    /// True when the installed voice `identifier` (`gmq/sv`) may be selected: a scanned
    /// language's, or one that spoke the survey clean.
    static func isUsable(identifier: String) -> Bool {
        scanned[language(ofVoice: identifier)] != nil || surveyedVoices.contains(identifier.lowercased())
    }

    /// The language of an eSpeak voice name: `gmw/en-US+f3` → `en`.
    static func language(ofVoice name: String) -> String {
        let base = name.split(separator: "+", maxSplits: 1).first.map(String.init) ?? name
        let file = base.split(separator: "/").last.map(String.init) ?? base
        return String(file.lowercased().prefix { $0 != "-" && $0 != "_" })
    }

    /// Every range of ``scanned``, merged.
    static let union = merged(scanned.values.joined())

    /// The code points libespeak-ng 1.51 hands to another language's translator: the alphabets
    /// of its `alphabets` table (tr_languages.c) that name a language (Greek, Armenian, the Indic
    /// scripts from Devanagari to Sinhala, Georgian, Hangul Jamo) and U+A700–U+D7FF, which it
    /// takes all for Korean (Latin Extended-D, Syloti Nagri, Saurashtra, Javanese, Meetei Mayek, …).
    static let languageSwitching: [ClosedRange<UInt32>] = [
        0x0380...0x03FF, 0x0530...0x058F, 0x0900...0x0DFF, 0x10A0...0x11FF, 0xA700...0xD7FF,
    ]

    /// The alphabets eSpeak NG speaks by switching language (``ownAlphabets``: Greek, Armenian,
    /// the Indic scripts, Georgian, Hangul), merged. A word of one of them must not hold an
    /// apostrophe or the like (``ESpeakLimits/withSafeWords(_:voice:)``): measured with fr, de, es
    /// and en-us on three letters of every 128 code points, these alphabets were the only ones
    /// that fault in `X'X` (Cyrillic, Hebrew, Arabic, Thai, Greek Extended, CJK and the rest are clean).
    static let switchedAlphabets = merged(ownAlphabets.values.joined())

    /// Letters and marks of switched alphabets that libespeak-ng 1.51's translator for them has
    /// no rule for.
    ///
    /// Inside a word of that alphabet with a letter after it (`Ͳθ`, `αϽβ`, `θͰθ`, `சௐச`, `ಖಽಖ`,
    /// the Kannada nukta in `ಕ಼ಖ`, every Georgian capital of Asomtavruli: `აႠბ`, `Ⴭბ`) the voice
    /// that switches to the alphabet's language for the word spells it, switches to English for
    /// this letter's name and then reads the translator it has freed (AddressSanitizer:
    /// heap-use-after-free in a dictionary lookup of the next letter; `Ͳθ` with fr is the
    /// `memcmp` on the freed `el_dict` the `ssml_render` fuzz target met). Measured with the ASan
    /// build (2026-12-06) on every letter and mark of Greek, Armenian, Georgian, the Indic scripts
    /// and Hangul Jamo in 3 to 7 word shapes, with the five voices of the profiles (a fault can
    /// depend on the text before it: the sweeps are not proof). Alone they are clean.
    /// ``ESpeakLimits/withSafeWords(_:voice:)`` drops them from such words.
    static let unspokenInWords: [ClosedRange<UInt32>] = [
        0x0370...0x0373, 0x0376...0x0377, 0x037B...0x037D, 0x03FD...0x03FF, 0x0BD0...0x0BD0,
        0x0CBC...0x0CBD, 0x10A0...0x10C5, 0x10C7...0x10C7, 0x10CD...0x10CD, 0x1FBE...0x1FBE,
    ]

    /// Characters that fault with every voice in a neighbourhood the character scan does not
    /// try, made spaces as the scanned ones are: U+0DF4 SINHALA PUNCTUATION KUNDDALIYA before a
    /// Sinhala word (`෴ ඛ`, en-us, es and en-gb: a freed translator; alone it is clean).
    static let unsafeWithAnyVoice: [ClosedRange<UInt32>] = [0x0DF4...0x0DF4]

    /// The alphabet of ``switchedAlphabets`` that `value` is in, named by its first code point
    /// (Greek's two blocks are one alphabet), or nil.
    static func switchedAlphabet(of value: UInt32) -> UInt32? {
        guard contains(value, switchedAlphabets) else { return nil }
        return alphabetsByFirstCodePoint.first { $0.ranges.contains { $0.contains(value) } }?.first
    }

    /// ``ownAlphabets``' distinct alphabets (Devanagari is hi's, mr's and ne's).
    private static let alphabetsByFirstCodePoint: [(first: UInt32, ranges: [ClosedRange<UInt32>])] = {
        var seen: Set<UInt32> = []
        let sorted = ownAlphabets.values.sorted { ($0.first?.lowerBound ?? 0) < ($1.first?.lowerBound ?? 0) }
        return sorted.compactMap { ranges in
            guard let first = ranges.first?.lowerBound, seen.insert(first).inserted else { return nil }
            return (first, ranges)
        }
    }()

    /// Ranges sorted and merged where they overlap or touch.
    private static func merged(_ ranges: some Sequence<ClosedRange<UInt32>>) -> [ClosedRange<UInt32>] {
        var merged: [ClosedRange<UInt32>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, range.lowerBound <= last.upperBound + 1 {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return merged
    }

    /// Below this, no character is unsafe with any voice: the first faulting one, or U+0378,
    /// the first code point Unicode has not assigned.
    private static let lowestUnsafe: UInt32 =
        ([0x378, union.first?.lowerBound] + ownFaults.values.map { $0.first?.lowerBound })
        .compactMap { $0 }.min() ?? 0x378

    /// Binary search of sorted, disjoint ranges.
    static func contains(_ value: UInt32, _ ranges: [ClosedRange<UInt32>]) -> Bool {
        var low = 0
        var high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].upperBound < value {
                low = middle + 1
            } else if ranges[middle].lowerBound > value {
                high = middle
            } else {
                return true
            }
        }
        return false
    }
}
