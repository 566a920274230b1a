/// The words and tables one language's normalisation uses: units, abbreviations, month names,
/// gender of navigation nouns, and small function words. Data, not code: adding a unit or an
/// abbreviation is adding a row here.
struct LanguageRules: Sendable {
    /// A unit's spoken names.
    struct UnitName: Sendable {
        var singular: String
        var plural: String
    }

    let language: NormalizationLanguage
    /// "point", "virgule", "Komma", "coma".
    let decimalSeparator: String
    /// "minus", "moins", "minus", "menos".
    let minus: String
    /// Unit symbols (case-sensitive) → spoken names.
    let units: [String: UnitName]
    /// Abbreviations that mean one thing wherever they stand (case-sensitive, without the dot).
    let abbreviations: [String: String]
    /// Abbreviations that may only be expanded in the street-type position (after a name):
    /// "St" → "Street", "Dr" → "Drive". Before a name they mean something else (Saint, Doctor).
    let streetSuffixes: [String: String]
    /// Abbreviations that mean a title before a capitalised name: "St" → "Saint", "Dr" → "Doctor".
    let namePrefixes: [String: String]
    /// Street-type words (full forms), so a number before "Main Street" reads as a house number.
    let streetTypes: Set<String>
    /// Words after which a number is a road, exit or junction number ("exit 432").
    let numberKeywords: Set<String>
    /// Route-ref letter prefixes that may be written with a space before the number ("B 27").
    let spacedRoutePrefixes: Set<String>
    /// Month names, January first.
    let months: [String]
    /// Nouns navigation text counts with ordinals, with their gender ("sortie" → feminine).
    let nounGenders: [String: GrammaticalGender]
    /// Articles and contractions → the gender, number and (German) case they mark.
    let articles: [String: GrammaticalForm]
    /// Fraction denominators with their own names (en: 2 → half/halves).
    let denominators: [Int: UnitName]
    /// Compass points after a route ref ("I-80 W" → "West").
    let compassPoints: [String: String]
    /// Telephone: the word for "+", and whether digits are read in pairs (fr).
    let plusWord: String
    let readsTelephoneInPairs: Bool
    /// "and", "et", "und", "y" (in times and fractions).
    let andWord: String
    /// 12-hour suffix words (en only: "a m", "p m").
    let morning: String
    let afternoon: String
    /// The word for "number" in "No. 1".
    let numberWord: String

    /// A capital letter as eSpeak should read it when spelled on its own. English eSpeak reads
    /// a lone "A" as the article /ə/, so it is written "Eh" (read /eɪ/).
    func letterName(_ letter: String) -> String {
        language == .english && letter == "A" ? "Eh" : letter
    }

    static func rules(for language: NormalizationLanguage) -> LanguageRules {
        switch language {
        case .english: english
        case .french: french
        case .german: german
        case .spanish: spanish
        }
    }

    private static func unit(_ singular: String, _ plural: String? = nil) -> UnitName {
        UnitName(singular: singular, plural: plural ?? singular)
    }

    static let english = LanguageRules(
        language: .english, decimalSeparator: "point", minus: "minus",
        units: [
            "m": unit("meter", "meters"), "km": unit("kilometer", "kilometers"),
            "ft": unit("foot", "feet"), "yd": unit("yard", "yards"), "mi": unit("mile", "miles"),
            "km/h": unit("kilometer per hour", "kilometers per hour"),
            "kph": unit("kilometer per hour", "kilometers per hour"),
            "mph": unit("mile per hour", "miles per hour"), "°": unit("degree", "degrees"),
            "°C": unit("degree Celsius", "degrees Celsius"),
            "°F": unit("degree Fahrenheit", "degrees Fahrenheit"), "%": unit("percent"),
            "h": unit("hour", "hours"), "min": unit("minute", "minutes"), "s": unit("second", "seconds"),
            "t": unit("ton", "tons"), "kg": unit("kilogram", "kilograms"),
        ],
        abbreviations: [
            "Ave": "Avenue", "Blvd": "Boulevard", "Rd": "Road", "Hwy": "Highway", "Pkwy": "Parkway",
            "Expy": "Expressway", "Fwy": "Freeway", "Ln": "Lane", "Jct": "Junction", "Tpke": "Turnpike",
            "Jr": "Junior", "Mt": "Mount", "Ft": "Fort", "Hts": "Heights", "Ctr": "Center", "Sq": "Square",
            "Pl": "Place", "Cir": "Circle", "Trl": "Trail", "Ter": "Terrace", "Pt": "Point",
        ],
        streetSuffixes: ["St": "Street", "Dr": "Drive"],
        namePrefixes: ["St": "Saint", "Dr": "Doctor"],
        streetTypes: [
            "Street", "Avenue", "Boulevard", "Road", "Drive", "Highway", "Parkway", "Lane", "Way", "Court",
            "Place", "Circle", "Terrace", "Expressway", "Freeway", "St", "Ave", "Blvd", "Rd", "Dr", "Hwy",
            "Pkwy", "Ln",
        ],
        numberKeywords: [
            "exit", "Exit", "exits", "Exits", "Route", "route", "Highway", "Hwy", "Interstate", "Junction",
            "junction", "Jct", "County Road", "Road", "Rd",
        ],
        spacedRoutePrefixes: [
            "I", "US", "SR", "CR", "M", "A", "B", "E", "N", "FM", "RR",
            // US state route prefixes ("CA 174", "UT 201", "VA 193").
            "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "FL", "GA", "HI", "ID", "IL", "IA", "KS", "KY",
            "LA", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ", "NM", "NY", "NC", "ND",
            "OH", "OK", "PA", "RI", "SC", "SD", "TN", "TX", "UT", "VT", "VA", "WA", "WV", "WI", "WY",
        ],
        months: [
            "January", "February", "March", "April", "May", "June", "July", "August", "September",
            "October", "November", "December",
        ],
        nounGenders: [:], articles: [:],
        denominators: [
            2: unit("half", "halves"), 4: unit("quarter", "quarters"),
        ],
        compassPoints: ["N": "North", "S": "South", "E": "East", "W": "West"],
        plusWord: "plus", readsTelephoneInPairs: false, andWord: "and", morning: "AM",
        afternoon: "PM", numberWord: "number")

    static let french = LanguageRules(
        language: .french, decimalSeparator: "virgule", minus: "moins",
        units: [
            "m": unit("mètre", "mètres"), "km": unit("kilomètre", "kilomètres"),
            "ft": unit("pied", "pieds"), "yd": unit("yard", "yards"), "mi": unit("mile", "miles"),
            "km/h": unit("kilomètre par heure", "kilomètres par heure"),
            "mph": unit("mile par heure", "miles par heure"), "°": unit("degré", "degrés"),
            "°C": unit("degré Celsius", "degrés Celsius"), "%": unit("pour cent"),
            "h": unit("heure", "heures"), "min": unit("minute", "minutes"), "s": unit("seconde", "secondes"),
            "t": unit("tonne", "tonnes"), "kg": unit("kilogramme", "kilogrammes"),
        ],
        abbreviations: [
            "Av": "Avenue", "Bd": "Boulevard", "Bld": "Boulevard", "Pl": "Place", "Rte": "Route",
            "Ste": "Sainte", "Fbg": "Faubourg", "Chem": "Chemin", "Imp": "Impasse",
        ],
        streetSuffixes: [:],
        namePrefixes: ["St": "Saint"],
        streetTypes: [], numberKeywords: ["sortie", "Sortie", "échangeur"],
        spacedRoutePrefixes: ["A", "N", "D", "E", "RN", "RD", "M", "C"],
        months: [
            "janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre",
            "novembre", "décembre",
        ],
        nounGenders: [
            "sortie": .feminine, "rue": .feminine, "avenue": .feminine, "route": .feminine,
            "intersection": .feminine, "voie": .feminine, "bretelle": .feminine, "place": .feminine,
            "rond-point": .masculine, "carrefour": .masculine, "feu": .masculine, "croisement": .masculine,
            "boulevard": .masculine, "chemin": .masculine, "étage": .masculine, "virage": .masculine,
        ],
        articles: [
            "la": GrammaticalForm(gender: .feminine), "une": GrammaticalForm(gender: .feminine),
            "le": GrammaticalForm(gender: .masculine), "un": GrammaticalForm(gender: .masculine),
            "au": GrammaticalForm(gender: .masculine), "du": GrammaticalForm(gender: .masculine),
        ],
        denominators: [
            2: unit("demi", "demis"), 3: unit("tiers"), 4: unit("quart", "quarts"),
        ],
        compassPoints: [:], plusWord: "plus", readsTelephoneInPairs: true, andWord: "et",
        morning: "du matin", afternoon: "de l'après-midi", numberWord: "numéro")

    static let german = LanguageRules(
        language: .german, decimalSeparator: "Komma", minus: "minus",
        units: [
            "m": unit("Meter"), "km": unit("Kilometer"), "ft": unit("Fuß"), "yd": unit("Yard", "Yards"),
            "mi": unit("Meile", "Meilen"), "km/h": unit("Kilometer pro Stunde"),
            "mph": unit("Meile pro Stunde", "Meilen pro Stunde"), "°": unit("Grad"),
            "°C": unit("Grad Celsius"), "%": unit("Prozent"), "h": unit("Stunde", "Stunden"),
            "min": unit("Minute", "Minuten"), "s": unit("Sekunde", "Sekunden"), "t": unit("Tonne", "Tonnen"),
            "kg": unit("Kilogramm"),
        ],
        abbreviations: ["Str": "Straße", "Pl": "Platz", "Ausf": "Ausfahrt", "Kr": "Kreuz"],
        streetSuffixes: [:], namePrefixes: ["St": "Sankt"],
        streetTypes: [], numberKeywords: ["Ausfahrt", "Anschlussstelle", "Abfahrt"],
        spacedRoutePrefixes: ["A", "B", "E", "L", "K", "S", "St"],
        months: [
            "Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober",
            "November", "Dezember",
        ],
        nounGenders: [
            "Ausfahrt": .feminine, "Straße": .feminine, "Kreuzung": .feminine, "Abfahrt": .feminine,
            "Einfahrt": .feminine, "Spur": .feminine, "Ampel": .feminine, "Abzweigung": .feminine,
            "Kreisverkehr": .masculine, "Weg": .masculine, "Abzweig": .masculine,
            "Stock": .masculine,
        ],
        articles: [
            "die": GrammaticalForm(gender: .feminine, grammaticalCase: .accusative),
            "das": GrammaticalForm(gender: .neuter, grammaticalCase: .accusative),
            "den": GrammaticalForm(gender: .masculine, grammaticalCase: .accusative),
            "dem": GrammaticalForm(grammaticalCase: .dative),
            "der": GrammaticalForm(grammaticalCase: .nominative),
            "des": GrammaticalForm(grammaticalCase: .genitive),
            "im": GrammaticalForm(grammaticalCase: .dative), "am": GrammaticalForm(grammaticalCase: .dative),
            "zum": GrammaticalForm(grammaticalCase: .dative),
            "zur": GrammaticalForm(grammaticalCase: .dative),
            "vom": GrammaticalForm(grammaticalCase: .dative),
            "beim": GrammaticalForm(grammaticalCase: .dative),
            "ins": GrammaticalForm(gender: .neuter, grammaticalCase: .accusative),
        ],
        denominators: [2: unit("halb", "halbe"), 3: unit("Drittel"), 4: unit("Viertel")],
        compassPoints: [:], plusWord: "plus", readsTelephoneInPairs: false, andWord: "und",
        morning: "", afternoon: "", numberWord: "Nummer")

    static let spanish = LanguageRules(
        language: .spanish, decimalSeparator: "coma", minus: "menos",
        units: [
            "m": unit("metro", "metros"), "km": unit("kilómetro", "kilómetros"),
            "ft": unit("pie", "pies"), "yd": unit("yarda", "yardas"), "mi": unit("milla", "millas"),
            "km/h": unit("kilómetro por hora", "kilómetros por hora"),
            "mph": unit("milla por hora", "millas por hora"), "°": unit("grado", "grados"),
            "°C": unit("grado Celsius", "grados Celsius"), "%": unit("por ciento"),
            "h": unit("hora", "horas"), "min": unit("minuto", "minutos"), "s": unit("segundo", "segundos"),
            "t": unit("tonelada", "toneladas"), "kg": unit("kilogramo", "kilogramos"),
        ],
        abbreviations: [
            "Avda": "Avenida", "Av": "Avenida", "Pza": "Plaza", "Ctra": "Carretera", "Pº": "Paseo",
            "Pso": "Paseo", "Gta": "Glorieta", "Urb": "Urbanización", "Bº": "Barrio",
        ],
        streetSuffixes: [:], namePrefixes: ["Sta": "Santa", "Sto": "Santo"],
        streetTypes: [], numberKeywords: ["salida", "Salida"],
        spacedRoutePrefixes: ["A", "AP", "N", "M", "C", "E", "CV", "B", "GR"],
        months: [
            "enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre",
            "octubre", "noviembre", "diciembre",
        ],
        nounGenders: [
            "salida": .feminine, "calle": .feminine, "avenida": .feminine, "rotonda": .feminine,
            "glorieta": .feminine, "intersección": .feminine, "carretera": .feminine, "autopista": .feminine,
            "autovía": .feminine, "plaza": .feminine, "vía": .feminine, "bifurcación": .feminine,
            "cruce": .masculine, "semáforo": .masculine, "desvío": .masculine, "carril": .masculine,
            "giro": .masculine, "camino": .masculine, "paseo": .masculine, "piso": .masculine,
            "puente": .masculine, "túnel": .masculine,
        ],
        articles: [
            "la": GrammaticalForm(gender: .feminine), "una": GrammaticalForm(gender: .feminine),
            "las": GrammaticalForm(gender: .feminine, isPlural: true),
            "el": GrammaticalForm(gender: .masculine), "un": GrammaticalForm(gender: .masculine),
            "al": GrammaticalForm(gender: .masculine), "del": GrammaticalForm(gender: .masculine),
            "los": GrammaticalForm(gender: .masculine, isPlural: true),
        ],
        denominators: [
            2: unit("medio", "medios"), 3: unit("tercio", "tercios"), 4: unit("cuarto", "cuartos"),
        ],
        compassPoints: [:], plusWord: "más", readsTelephoneInPairs: false, andWord: "y",
        morning: "de la mañana", afternoon: "de la tarde", numberWord: "número")
}
