import Foundation
import Testing
import VoiceGuidance

@Suite struct PhraseTests {
    static let maneuvers: [(ManeuverType, ManeuverModifier?, Int?)] = [
        (.turn, .left, nil), (.turn, .slightLeft, nil), (.turn, .sharpRight, nil), (.turn, .uTurn, nil),
        (.continue, .slightRight, nil), (.merge, .slightLeft, nil), (.onRamp, .right, nil),
        (.offRamp, .slightRight, nil), (.fork, .slightLeft, nil), (.endOfRoad, .right, nil),
        (.roundabout, .right, 2), (.rotary, .straight, 3), (.arrive, nil, nil), (.arrive, .left, nil),
        (.arrive, .right, nil),
    ]

    /// Final prompts, long wording (short in parentheses where it differs by more than the road).
    static let finals: [String: [String]] = [
        "en": [
            "Turn left onto Main Street", "Bear left onto Main Street", "Make a sharp right onto Main Street",
            "Make a U-turn onto Main Street", "Keep right onto Main Street", "Merge left onto Main Street",
            "Take the ramp on the right onto Main Street", "Take the exit on the right onto Main Street",
            "Keep left at the fork onto Main Street", "At the end of the road, turn right onto Main Street",
            "At the roundabout, take the second exit onto Main Street",
            "At the rotary, take the third exit onto Main Street", "Your destination is ahead",
            "Your destination is ahead on your left", "Your destination is ahead on your right",
        ],
        "fr": [
            "Tournez à gauche sur Main Street", "Tournez légèrement à gauche sur Main Street",
            "Tournez franchement à droite sur Main Street", "Faites demi-tour sur Main Street",
            "Restez à droite sur Main Street", "Insérez-vous à gauche sur Main Street",
            "Prenez la bretelle à droite sur Main Street", "Prenez la sortie à droite sur Main Street",
            "Restez à gauche à l'embranchement sur Main Street",
            "Au bout de la route, tournez à droite sur Main Street",
            "Au rond-point, prenez la deuxième sortie sur Main Street",
            "Au rond-point, prenez la troisième sortie sur Main Street", "Votre destination est droit devant",
            "Votre destination est devant vous, sur votre gauche",
            "Votre destination est devant vous, sur votre droite",
        ],
        "de": [
            "Links abbiegen auf Main Street", "Leicht links abbiegen auf Main Street",
            "Scharf rechts abbiegen auf Main Street", "Wenden auf Main Street",
            "Rechts halten auf Main Street",
            "Links einfädeln auf Main Street", "Die Auffahrt rechts nehmen auf Main Street",
            "Die Ausfahrt rechts nehmen auf Main Street", "An der Gabelung links halten auf Main Street",
            "Am Ende der Straße rechts abbiegen auf Main Street",
            "Im Kreisverkehr die zweite Ausfahrt nehmen auf Main Street",
            "Im Kreisverkehr die dritte Ausfahrt nehmen auf Main Street", "Ihr Ziel liegt vor Ihnen",
            "Ihr Ziel liegt vor Ihnen auf der linken Seite", "Ihr Ziel liegt vor Ihnen auf der rechten Seite",
        ],
        "es": [
            "Gire a la izquierda hacia Main Street", "Gire ligeramente a la izquierda hacia Main Street",
            "Gire bruscamente a la derecha hacia Main Street", "Cambie de sentido hacia Main Street",
            "Manténgase a la derecha hacia Main Street", "Incorpórese por la izquierda hacia Main Street",
            "Tome la vía de acceso de la derecha hacia Main Street",
            "Tome la salida de la derecha hacia Main Street",
            "Manténgase a la izquierda en la bifurcación hacia Main Street",
            "Al final de la calle, gire a la derecha hacia Main Street",
            "En la rotonda, tome la segunda salida hacia Main Street",
            "En la rotonda, tome la tercera salida hacia Main Street", "Su destino está adelante",
            "Su destino está adelante a la izquierda", "Su destino está adelante a la derecha",
        ],
    ]

    static let distances: [Double] = [
        8, 47, 152, 226, 366, 402, 480, 800, 1000, 1040, 1207, 1480, 1609, 2260, 6100, 14_300,
    ]

    /// How each distance above is said, per language and unit system.
    static let spoken: [String: [UnitSystem: [String]]] = [
        "en": [
            .metric: [
                "10 meters", "50 meters", "150 meters", "250 meters", "350 meters", "400 meters",
                "500 meters",
                "800 meters", "1 kilometer", "1 kilometer", "1.2 kilometers", "1.5 kilometers",
                "1.6 kilometers",
                "2.3 kilometers", "6 kilometers", "14 kilometers",
            ],
            .imperial: [
                "nil", "150 feet", "500 feet", "700 feet", "1200 feet", "a quarter mile", "0.3 miles",
                "a half mile", "0.6 miles", "0.6 miles", "three quarters of a mile", "0.9 miles", "1 mile",
                "1.4 miles", "4 miles", "9 miles",
            ],
        ],
        "fr": [
            .metric: [
                "10 mètres", "50 mètres", "150 mètres", "250 mètres", "350 mètres", "400 mètres",
                "500 mètres",
                "800 mètres", "1 kilomètre", "1 kilomètre", "1,2 kilomètres", "1,5 kilomètres",
                "1,6 kilomètres",
                "2,3 kilomètres", "6 kilomètres", "14 kilomètres",
            ],
            .imperial: [
                "nil", "150 pieds", "500 pieds", "700 pieds", "1200 pieds", "un quart de mile", "0,3 miles",
                "un demi-mile", "0,6 miles", "0,6 miles", "trois quarts de mile", "0,9 miles", "1 mile",
                "1,4 miles", "4 miles", "9 miles",
            ],
        ],
        "de": [
            .metric: [
                "10 Metern", "50 Metern", "150 Metern", "250 Metern", "350 Metern", "400 Metern",
                "500 Metern",
                "800 Metern", "1 Kilometer", "1 Kilometer", "1,2 Kilometern", "1,5 Kilometern",
                "1,6 Kilometern",
                "2,3 Kilometern", "6 Kilometern", "14 Kilometern",
            ],
            .imperial: [
                "nil", "150 Fuß", "500 Fuß", "700 Fuß", "1200 Fuß", "einer Viertelmeile", "0,3 Meilen",
                "einer halben Meile", "0,6 Meilen", "0,6 Meilen", "einer Dreiviertelmeile", "0,9 Meilen",
                "1 Meile", "1,4 Meilen", "4 Meilen", "9 Meilen",
            ],
        ],
        "es": [
            .metric: [
                "10 metros", "50 metros", "150 metros", "250 metros", "350 metros", "400 metros",
                "500 metros",
                "800 metros", "1 kilómetro", "1 kilómetro", "1,2 kilómetros", "1,5 kilómetros",
                "1,6 kilómetros",
                "2,3 kilómetros", "6 kilómetros", "14 kilómetros",
            ],
            .imperial: [
                "nil", "150 pies", "500 pies", "700 pies", "1200 pies", "un cuarto de milla", "0,3 millas",
                "media milla", "0,6 millas", "0,6 millas", "tres cuartos de milla", "0,9 millas", "1 milla",
                "1,4 millas", "4 millas", "9 millas",
            ],
        ],
    ]

    /// approach, approach toward a destination, arrival approach, "then", continue, depart long, depart short.
    static let sentences: [String: [String]] = [
        "en": [
            "In 300 meters, turn left onto Main Street",
            "In 300 meters, take the exit on the right toward Hamburg",
            "In 300 meters, you will arrive at your destination",
            "Turn left onto Main Street, then take the exit on the right",
            "Continue on Main Street for 2 kilometers",
            "Head east on Taylor Street", "Head east",
        ],
        "fr": [
            "Dans 300 mètres, tournez à gauche sur Main Street",
            "Dans 300 mètres, prenez la sortie à droite en direction de Hamburg",
            "Dans 300 mètres, vous arriverez à destination",
            "Tournez à gauche sur Main Street, puis prenez la sortie à droite",
            "Continuez sur Main Street pendant 2 kilomètres", "Dirigez-vous vers l'est sur Taylor Street",
            "Dirigez-vous vers l'est",
        ],
        "de": [
            "In 300 Metern links abbiegen auf Main Street",
            "In 300 Metern die Ausfahrt rechts nehmen Richtung Hamburg",
            "In 300 Metern erreichen Sie Ihr Ziel",
            "Links abbiegen auf Main Street, dann die Ausfahrt rechts nehmen",
            "Weiter auf Main Street, nächstes Manöver in 2 Kilometern",
            "Auf Taylor Street Richtung Osten fahren",
            "Richtung Osten fahren",
        ],
        "es": [
            "En 300 metros, gire a la izquierda hacia Main Street",
            "En 300 metros, tome la salida de la derecha en dirección a Hamburg",
            "En 300 metros, llegará a su destino",
            "Gire a la izquierda hacia Main Street, después tome la salida de la derecha",
            "Continúe por Main Street durante 2 kilómetros", "Diríjase al este por Taylor Street",
            "Diríjase al este",
        ],
    ]

    @Test(arguments: ["en", "fr", "de", "es"])
    func finalPromptsGolden(language: String) throws {
        let builder = try RoutingSupport.builder(language)
        let expected = try #require(Self.finals[language])
        for ((type, modifier, exit), golden) in zip(Self.maneuvers, expected) {
            let step = RouteStep(
                maneuver: Maneuver(type: type, modifier: modifier, exit: exit), name: "Main Street",
                distance: 100,
                duration: 10)
            #expect(builder.finalText(for: step, wording: .long) == golden)
            let short = builder.finalText(for: step, wording: .short)
            #expect(!short.contains("Main Street"))
            #expect(short.count <= golden.count)
        }
    }

    @Test(arguments: ["en", "fr", "de", "es"], UnitSystem.allCases)
    func distancesGolden(language: String, units: UnitSystem) throws {
        let builder = try RoutingSupport.builder(language, units: units)
        let expected = try #require(Self.spoken[language]?[units])
        #expect(Self.distances.map { builder.distance($0)?.text ?? "nil" } == expected)
    }

    @Test(arguments: ["en", "fr", "de", "es"])
    func sentencesGolden(language: String) throws {
        let builder = try RoutingSupport.builder(language)
        let turn = RouteStep(
            maneuver: Maneuver(type: .turn, modifier: .left), name: "Main Street", distance: 100, duration: 10
        )
        let ramp = RouteStep(
            maneuver: Maneuver(type: .offRamp, modifier: .slightRight), ref: "A 7", destinations: "Hamburg",
            distance: 100, duration: 10)
        let arrive = RouteStep(maneuver: Maneuver(type: .arrive, modifier: .right), distance: 0, duration: 0)
        let depart = RouteStep(
            maneuver: Maneuver(type: .depart, bearingAfter: 93), name: "Taylor Street", distance: 100,
            duration: 10)
        let distance = try #require(builder.distance(300))
        let actual = [
            builder.approachText(for: turn, distance: distance, wording: .long),
            builder.approachText(for: ramp, distance: distance, wording: .long),
            builder.approachText(for: arrive, distance: distance, wording: .long),
            builder.finalText(for: turn, wording: .long, then: ramp),
            builder.continueText(on: turn, distance: try #require(builder.distance(2040)), wording: .long),
            builder.departText(for: depart, wording: .long),
            builder.departText(for: depart, wording: .short),
        ]
        #expect(actual == Self.sentences[language])
    }

    /// Rounding is to the nearest sayable value, and within 14% from 150 m up.
    @Test(arguments: UnitSystem.allCases)
    func roundingIsNearestAndBounded(units: UnitSystem) {
        var meters = 150.0
        while meters < 20_000 {
            let said = SpokenDistance.roundedMeters(meters, units: units)!
            #expect(abs(said - meters) / meters <= 0.145, "\(meters) m said as \(said) m")
            meters *= 1.013
        }
        #expect(SpokenDistance.roundedMeters(.nan, units: units) == nil)
        #expect(SpokenDistance.roundedMeters(-5, units: units) == nil)
        #expect(SpokenDistance.roundedMeters(224, units: .metric) == 200)
        #expect(SpokenDistance.roundedMeters(226, units: .metric) == 250)
    }

    @Test(arguments: [
        ("en", 12, "At the roundabout, take the twelfth exit"),
        ("en", 999, "At the roundabout, take the nine hundred ninety-ninth exit"),
        ("fr", 11, "Au rond-point, prenez la onzième sortie"),
        ("de", 11, "Im Kreisverkehr die elfte Ausfahrt nehmen"),
        ("es", 11, "En la rotonda, tome la decimoprimera salida"),
        ("es", 23, "En la rotonda, tome la vigésima tercera salida"),
    ])
    func exitBeyondThePhraseBooksOrdinalsIsSpelled(language: String, exit: Int, text: String) throws {
        let builder = try RoutingSupport.builder(language)
        let step = RouteStep(maneuver: Maneuver(type: .roundabout, exit: exit), distance: 10, duration: 1)
        #expect(builder.finalText(for: step, wording: .short) == text)
    }

    @Test func namedRotaryExitAgreesWithItsTemplate() throws {
        let builder = try RoutingSupport.builder("de")
        let step = RouteStep(
            maneuver: Maneuver(type: .rotary, exit: 13), rotaryName: "Großen Stern", distance: 10, duration: 1
        )
        #expect(
            builder.finalText(for: step, wording: .long) == "Am Großen Stern die dreizehnte Ausfahrt nehmen")
    }

    @Test func badPhraseBooksAreClearErrors() throws {
        #expect(throws: PhraseBookError.self) {
            _ = try PhraseBook.load(directory: RoutingSupport.phrasesFolder, language: "xx")
        }
        #expect(throws: PhraseBookError.self) {
            _ = try PhraseBook.load(directory: RoutingSupport.phrasesFolder, language: "../etc")
        }
        var json = try String(
            contentsOf: RoutingSupport.phrasesFolder.appendingPathComponent("en.json"), encoding: .utf8)
        json = json.replacingOccurrences(of: "\"turn.left\"", with: "\"turn.lift\"")
        #expect {
            _ = try PhraseBook.decode(Data(json.utf8))
        } throws: { error in
            (error as? PhraseBookError)?.message.contains("maneuvers.turn.left") == true
        }
        #expect {
            _ = try PhraseBook.decode(Data(#"{"language": 3}"#.utf8))
        } throws: { error in
            (error as? PhraseBookError)?.message.contains("language") == true
        }
    }

    /// Decoded with a plain `JSONDecoder` (not `PhraseBook.decode`), a book without a required
    /// phrase is a decoding error naming it, not a crash later in `PhraseBuilder`.
    @Test func aPlainlyDecodedBookIsCheckedToo() throws {
        let json = try String(
            contentsOf: RoutingSupport.phrasesFolder.appendingPathComponent("en.json"), encoding: .utf8
        ).replacingOccurrences(of: "\"arrive.approach\"", with: "\"arrive.later\"")
        #expect {
            _ = try JSONDecoder().decode(PhraseBook.self, from: Data(json.utf8))
        } throws: { error in
            guard let error = error as? DecodingError else { return false }
            return describe(error).contains("maneuvers.arrive.approach")
        }
        var book = try RoutingSupport.builder("en").book
        book.maneuvers["arrive.approach"] = nil
        let builder = PhraseBuilder(book: book, units: .metric)
        let arrive = RouteStep(maneuver: Maneuver(type: .arrive), distance: 0, duration: 0)
        let distance = try #require(builder.distance(400))
        #expect(!builder.approachText(for: arrive, distance: distance, wording: .long).isEmpty)
    }

    @Test func everyLanguageHasEveryRequiredPhrase() throws {
        for language in ["en", "fr", "de", "es"] {
            let book = try PhraseBook.load(directory: RoutingSupport.phrasesFolder, language: language)
            #expect(book.language == language)
            #expect(book.ordinals.count == 10)
        }
    }

    @Test(arguments: [
        ("A 9: Munich; Nuremberg", "A 9, Munich, Nuremberg"), ("Hamburg", "Hamburg"),
        ("I 95 North: Baltimore, Philadelphia", "I 95 North, Baltimore, Philadelphia"), (" ; ", nil),
    ])
    func destinationsAreSpokenAsAList(_ raw: String, _ spoken: String?) {
        #expect(PhraseBuilder.spokenDestinations(raw) == spoken)
    }
}
