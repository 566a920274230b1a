import Foundation

/// How much a prompt says: the long wording names roads and destinations, the short one does not.
public enum Wording: String, Sendable, Hashable, CaseIterable, Codable {
    case long, short
}

/// Builds instruction sentences from a phrase book, in one unit system.
public struct PhraseBuilder: Sendable {
    /// The language's words.
    public let book: PhraseBook
    /// The units distances are said in.
    public let units: UnitSystem

    public init(book: PhraseBook, units: UnitSystem) {
        self.book = book
        self.units = units
    }

    /// A maneuver phrase every decoded book has (`PhraseBook.requiredManeuverKeys`); a book
    /// edited after decoding that lacks it gets the key itself spoken, never a crash.
    private func required(_ key: String) -> String {
        book.maneuvers[key] ?? key
    }

    // MARK: Distances

    /// The nearest sayable distance and its words, or nil when `meters` is too small to say.
    public func distance(_ meters: Double) -> SpokenDistance? {
        guard let value = SpokenDistance.roundedMeters(meters, units: units) else { return nil }
        let words = book.distances
        switch units {
        case .metric:
            if value < 999.5 {
                return SpokenDistance(
                    meters: value, text: fill(words.meters, ["n": String(Int(saturating: value.rounded()))]))
            }
            let kilometers = value / 1000
            if abs(kilometers - 1) < 0.001 { return SpokenDistance(meters: value, text: words.kilometer) }
            return SpokenDistance(meters: value, text: fill(words.kilometers, ["n": number(kilometers)]))
        case .imperial:
            let feet = value / SpokenDistance.metersPerFoot
            if feet < 1200.5 {
                return SpokenDistance(
                    meters: value, text: fill(words.feet, ["n": String(Int(saturating: feet.rounded()))]))
            }
            let miles = value / SpokenDistance.metersPerMile
            let text: String
            switch (miles * 100).rounded() {
            case 25: text = words.quarterMile
            case 50: text = words.halfMile
            case 75: text = words.threeQuarterMile
            case 100: text = words.mile
            default: text = fill(words.miles, ["n": number(miles)])
            }
            return SpokenDistance(meters: value, text: text)
        }
    }

    private func number(_ value: Double) -> String {
        let tenths = Int(saturating: (value * 10).rounded())
        if tenths % 10 == 0 { return String(tenths / 10) }
        return "\(tenths / 10)\(book.decimalSeparator)\(tenths % 10)"
    }

    // MARK: Maneuvers

    /// The phrase for a step's maneuver, lower case at its start ("turn left onto Main Street").
    ///
    /// - Parameters:
    ///   - step: the step whose maneuver (at its start) is described.
    ///   - wording: `.long` adds the road or destination.
    public func maneuverPhrase(for step: RouteStep, wording: Wording) -> String {
        let maneuver = step.maneuver
        let type = maneuver.type.rawValue
        let modifier = maneuver.modifier?.rawValue
        if maneuver.type == .arrive {
            if let waypoint = step.waypoint, let phrase = waypointPhrase(waypoint, key: "arrive.waypoint") {
                return phrase
            }
            if let modifier, let side = book.maneuvers["arrive.\(modifier)"], wording == .long { return side }
            return book.maneuvers["arrive"] ?? "arrive"
        }
        var phrase: String
        if maneuver.type == .roundabout || maneuver.type == .rotary || maneuver.type == .roundaboutTurn {
            let kind = maneuver.type == .rotary ? "rotary" : "roundabout"
            if let exit = maneuver.exit, exit > 0 {
                if kind == "rotary", let name = step.rotaryName, !name.isEmpty, wording == .long {
                    let template = required("rotary.named")
                    phrase = fill(template, ["rotary": name, "ordinal": exitOrdinal(exit, in: template)])
                } else {
                    let template = required(kind)
                    phrase = fill(template, ["ordinal": exitOrdinal(exit, in: template)])
                }
            } else {
                phrase = required("roundabout.noExit")
            }
        } else {
            let lookupType = (maneuver.type == .newName || maneuver.type == .notification) ? "continue" : type
            let key = modifier.map { "\(lookupType).\($0)" }
            phrase =
                key.flatMap { book.maneuvers[$0] }
                ?? (modifier == "uturn" ? book.maneuvers["turn.uturn"] : nil)
                ?? book.maneuvers[lookupType]
                ?? modifier.flatMap { book.maneuvers["turn.\($0)"] }
                ?? required("continue")
        }
        guard wording == .long else { return phrase }
        let road = roadName(of: step)
        let destination = step.destinations.flatMap(Self.spokenDestinations)
        let prefersDestination = [ManeuverType.offRamp, .onRamp, .fork, .merge].contains(maneuver.type)
        if prefersDestination, let destination {
            return fill(book.templates.toward, ["instruction": phrase, "destination": destination])
        }
        if let road {
            return fill(book.templates.onto, ["instruction": phrase, "road": road])
        }
        if let destination {
            return fill(book.templates.toward, ["instruction": phrase, "destination": destination])
        }
        return phrase
    }

    /// The book's phrase `key` for arriving at intermediate waypoint `number`, its `{ordinal}`
    /// filled ("your second stop is ahead"); nil when the book has none (the destination's
    /// phrase is said then).
    private func waypointPhrase(_ number: Int, key: String) -> String? {
        guard let template = book.maneuvers[key] else { return nil }
        return fill(template, ["ordinal": exitOrdinal(number, in: template)])
    }

    /// The ordinal of roundabout exit `exit` in words: the phrase book's own up to its last, then
    /// spelled by the normaliser's number speller, agreeing with the words around `{ordinal}` in
    /// `template` (fr "la {ordinal} sortie" → "onzième", de "die {ordinal} Ausfahrt" → "elfte",
    /// es "la {ordinal} salida" → "decimoprimera"). A language without number rules gets digits.
    public func exitOrdinal(_ exit: Int, in template: String) -> String {
        if exit >= 1, exit <= book.ordinals.count { return book.ordinals[exit - 1] }
        guard let language = NormalizationLanguage(tag: book.language) else { return String(exit) }
        // The template with a number where the ordinal goes, so the rewriter reads its context.
        let tokens = TextToken.tokenize(template.replacingOccurrences(of: "{ordinal}", with: "0"))
        var form = GrammaticalForm()
        if let index = tokens.firstIndex(where: { $0.isNumber && $0.text == "0" }) {
            form = NavigationTextRewriter(language: language).context(tokens, before: index, after: index + 1)
            // An exit ordinal stands before its noun (es "tercer", not "tercero" before a masculine).
            form.isBeforeNoun = true
        }
        return NumberSpeller(language: language).ordinal(exit, form: form)
    }

    /// Directions v5 `destinations` as said: "A 9: Munich; Nuremberg" (refs, a colon, then
    /// places split by `;` or `,`) becomes "A 9, Munich, Nuremberg"; nil when empty.
    public static func spokenDestinations(_ raw: String) -> String? {
        let parts = raw.split(whereSeparator: { ":;,".contains($0) })
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    /// The road a step drives on, as said: its name, else its ref; nil when it has neither.
    public func roadName(of step: RouteStep) -> String? {
        if !step.name.isEmpty { return step.name }
        if let ref = step.ref, !ref.isEmpty { return ref }
        return nil
    }

    // MARK: Sentences

    /// The final prompt: "Turn left onto Main Street" (or "…, then turn right" with `then`).
    public func finalText(for step: RouteStep, wording: Wording, then next: RouteStep? = nil) -> String {
        var text = maneuverPhrase(for: step, wording: wording)
        if let next {
            text = fill(
                book.templates.then, ["first": text, "second": maneuverPhrase(for: next, wording: .short)])
        }
        return sentence(text)
    }

    /// A prompt with a distance: "In 300 meters, turn left onto Main Street".
    public func approachText(
        for step: RouteStep, distance: SpokenDistance, wording: Wording, then next: RouteStep? = nil
    ) -> String {
        var phrase: String
        if step.maneuver.type == .arrive {
            phrase =
                step.waypoint.flatMap { waypointPhrase($0, key: "arrive.waypoint.approach") }
                ?? required("arrive.approach")
        } else {
            phrase = maneuverPhrase(for: step, wording: wording)
        }
        if let next {
            phrase = fill(
                book.templates.then, ["first": phrase, "second": maneuverPhrase(for: next, wording: .short)])
        }
        return sentence(fill(book.templates.in, ["distance": distance.text, "instruction": phrase]))
    }

    /// "Continue on Main Street for 2 kilometers" (long) or "Continue for 2 kilometers" (short).
    public func continueText(on step: RouteStep, distance: SpokenDistance, wording: Wording) -> String {
        if wording == .long, let road = roadName(of: step) {
            return sentence(fill(book.templates.continueOnFor, ["road": road, "distance": distance.text]))
        }
        return sentence(fill(book.templates.continueFor, ["distance": distance.text]))
    }

    /// The depart prompt: "Head south on Taylor Street" (long) or "Head south" (short).
    public func departText(for step: RouteStep, wording: Wording) -> String {
        let bearing = step.maneuver.bearingAfter.flatMap { $0.isFinite ? $0 : nil } ?? 0
        let sector = ((bearing.truncatingRemainder(dividingBy: 360) + 360 + 22.5) / 45).rounded(.down)
        let index = Int(saturating: sector) % 8
        let direction = book.directions[index]
        if wording == .long, let road = roadName(of: step) {
            return sentence(fill(book.templates.departOn, ["direction": direction, "road": road]))
        }
        return sentence(fill(book.templates.depart, ["direction": direction]))
    }

    /// The text with its first letter in upper case.
    public func sentence(_ text: String) -> String {
        guard let first = text.first else { return text }
        return first.uppercased() + text.dropFirst()
    }

    private func fill(_ template: String, _ values: [String: String]) -> String {
        var out = template
        for (key, value) in values {
            out = out.replacingOccurrences(of: "{\(key)}", with: value)
        }
        return out
    }
}
