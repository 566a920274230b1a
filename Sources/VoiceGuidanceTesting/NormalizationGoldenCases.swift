/// Golden cases for text normalisation: input (plain text or SSML) → the text handed to eSpeak,
/// per language. Shared by the core tests and the eSpeak phoneme tests.
public enum NormalizationGoldenCases {
    /// One case: a language, an input, and the normalised text (whitespace collapsed).
    public struct Case: Sendable, Hashable, CustomStringConvertible {
        public var language: String
        public var input: String
        public var expected: String

        public init(_ language: String, _ input: String, _ expected: String) {
            self.language = language
            self.input = input
            self.expected = expected
        }

        public var description: String { "[\(language)] \(input)" }
    }

    /// Every case of every language.
    public static var all: [Case] { english + french + german + spanish }

    public static let english: [Case] = [
        Case("en", "Merge onto I-280 N", "Merge onto I two eighty North"),
        Case("en", "Take exit 432 towards US-101", "Take exit four thirty-two towards U S one oh one"),
        Case("en", "Turn right onto 1066 Main St", "Turn right onto ten sixty-six Main Street"),
        Case("en", "In 0.5 mi, turn left", "In half a mile, turn left"),
        Case(
            "en", "In 1.2 km, keep right onto M25",
            "In one point two kilometers, keep right onto M twenty-five"),
        Case("en", "Turn left onto St Paul St", "Turn left onto Saint Paul Street"),
        Case("en", "Turn right onto 5th St.", "Turn right onto 5th Street."),
        Case("en", "Take exits 43-44", "Take exits forty-three forty-four"),
        Case(
            "en", "Continue on Dr Martin Luther King Jr Blvd",
            "Continue on Doctor Martin Luther King Junior Boulevard"),
        Case("en", "Turn left onto Ocean Ave", "Turn left onto Ocean Avenue"),
        Case("en", "Keep left at the fork onto Ventura Fwy", "Keep left at the fork onto Ventura Freeway"),
        Case("en", "Continue onto Pacific Coast Hwy", "Continue onto Pacific Coast Highway"),
        Case("en", "Turn onto Garden State Pkwy", "Turn onto Garden State Parkway"),
        Case("en", "Turn right onto Mill Rd", "Turn right onto Mill Road"),
        Case("en", "Turn left onto Sunset Dr", "Turn left onto Sunset Drive"),
        Case(
            "en", "Take the A9, then the B 27 and the E 45",
            "Take the Eh nine, then the B twenty-seven and the E forty-five"),
        Case("en", "Take exit 8B toward CA-1", "Take exit eight B toward C Eh one"),
        Case("en", "Follow Route 66 for 2 miles", "Follow Route sixty-six for 2 miles"),
        Case("en", "Take the 1st exit", "Take the 1st exit"),
        Case("en", "In 500 ft, turn right", "In five hundred feet, turn right"),
        Case("en", "Drive 3 mi on N7", "Drive three miles on N seven"),
        Case("en", "Turn onto Main St Bridge", "Turn onto Main St Bridge"),
        Case("en", "Speed limit 55 mph", "Speed limit fifty-five miles per hour"),
        Case("en", "<say-as interpret-as=\"cardinal\">1234</say-as>", "one thousand two hundred thirty-four"),
        Case("en", "<say-as interpret-as=\"number\">-7</say-as>", "minus seven"),
        Case("en", "<say-as interpret-as=\"cardinal\">2.5</say-as>", "two point five"),
        Case("en", "Take the <say-as interpret-as=\"ordinal\">3</say-as> exit", "Take the third exit"),
        Case("en", "<say-as interpret-as=\"ordinal\">21st</say-as>", "twenty-first"),
        Case("en", "<say-as interpret-as=\"ordinal\">112</say-as>", "one hundred twelfth"),
        Case("en", "<say-as interpret-as=\"digits\">0815</say-as>", "zero eight one five"),
        Case("en", "<say-as interpret-as=\"characters\">ABC12</say-as>", "Eh B C one two"),
        Case("en", "<say-as interpret-as=\"spell-out\">I-5</say-as>", "I five"),
        Case("en", "<say-as interpret-as=\"fraction\">3/4</say-as>", "three quarters"),
        Case("en", "<say-as interpret-as=\"fraction\">1 1/2</say-as>", "one and a half"),
        Case("en", "<say-as interpret-as=\"fraction\">5/8</say-as>", "five eighths"),
        Case("en", "<say-as interpret-as=\"unit\">90 km/h</say-as>", "ninety kilometers per hour"),
        Case("en", "<say-as interpret-as=\"unit\">1 mi</say-as>", "one mile"),
        Case("en", "<say-as interpret-as=\"unit\">20°</say-as>", "twenty degrees"),
        Case(
            "en", "<say-as interpret-as=\"date\" format=\"mdy\">12/25/2024</say-as>",
            "December twenty-fifth, twenty twenty-four"),
        Case(
            "en", "<say-as interpret-as=\"date\" format=\"dmy\">4/7/1999</say-as>",
            "July fourth, nineteen ninety-nine"),
        Case(
            "en", "<say-as interpret-as=\"date\" format=\"ymd\">2005-03-01</say-as>",
            "March first, two thousand five"),
        Case("en", "<say-as interpret-as=\"date\" format=\"md\">7/4</say-as>", "July fourth"),
        Case("en", "<say-as interpret-as=\"date\" format=\"y\">2100</say-as>", "twenty-one hundred"),
        Case("en", "<say-as interpret-as=\"time\">3:15 PM</say-as>", "three fifteen PM"),
        Case("en", "<say-as interpret-as=\"time\">14:30</say-as>", "fourteen thirty"),
        Case("en", "<say-as interpret-as=\"time\">9:05</say-as>", "nine oh five"),
        Case(
            "en", "<say-as interpret-as=\"telephone\">+1 (555) 123-4567</say-as>",
            "plus one, five five five, one two three, four five six seven"),
        Case(
            "en", "Take exit <say-as interpret-as=\"address\">432</say-as> towards Cesar Chavez Street",
            "Take exit four thirty-two towards Cesar Chavez Street"),
        Case("en", "<say-as interpret-as=\"address\">1066</say-as> Main Street", "ten sixty-six Main Street"),
        Case("en", "Take <say-as interpret-as=\"address\">I-80</say-as> W", "Take I eighty W"),
        Case("en", "<say-as interpret-as=\"address\">13th</say-as> Street", "thirteenth Street"),
        Case("en", "<say-as interpret-as=\"address\">43-44</say-as>", "forty-three forty-four"),
        Case(
            "en", "<say-as interpret-as=\"address\">National Road No.1 Line</say-as>",
            "National Road number one Line"),
        Case("en", "<say-as interpret-as=\"address\">101</say-as>", "one oh one"),
        Case("en", "<say-as interpret-as=\"address\">2100</say-as>", "twenty-one hundred"),
        Case("en", "<say-as interpret-as=\"address\">434A</say-as>", "four thirty-four Eh"),
        Case("en", "<say-as interpret-as=\"currency\">$45</say-as>", "forty-five dollars"),
        Case("en", "<say-as interpret-as=\"currency\">€3.50</say-as>", "three euros and fifty cents"),
        Case("en", "<say-as interpret-as=\"currency\">£10</say-as>", "ten pounds"),
        Case("en", "<say-as interpret-as=\"fraction\">2+1/2</say-as>", "two and a half"),
        Case("en", "<say-as interpret-as=\"time\">1'21\"</say-as>", "one minute twenty-one seconds"),
    ]

    public static let french: [Case] = [
        Case("fr", "Prenez la 1re sortie", "Prenez la première sortie"),
        Case("fr", "Prenez la 2e sortie vers A9", "Prenez la deuxième sortie vers A neuf"),
        Case("fr", "Au 1er rond-point, tournez à droite", "Au premier rond-point, tournez à droite"),
        Case("fr", "Dans 1,2 km, restez à gauche", "Dans un virgule deux kilomètre, restez à gauche"),
        Case("fr", "Dans 500 m, tournez à droite", "Dans cinq cents mètres, tournez à droite"),
        Case("fr", "Continuez sur 3 km", "Continuez sur trois kilomètres"),
        Case(
            "fr", "Tournez à gauche sur Av. Foch puis Bd Haussmann",
            "Tournez à gauche sur Avenue Foch puis Boulevard Haussmann"),
        Case("fr", "Direction St-Denis", "Direction Saint-Denis"),
        Case("fr", "Prenez la N7 puis la D 906", "Prenez la N sept puis la D neuf cent six"),
        Case("fr", "Prenez la sortie 12 vers Lyon", "Prenez la sortie douze vers Lyon"),
        Case("fr", "Place Ste-Anne", "Place Sainte-Anne"),
        Case("fr", "Rejoignez l'A 10", "Rejoignez l'A dix"),
        Case("fr", "la 21e rue", "la vingt et unième rue"),
        Case("fr", "le 80e kilomètre", "le quatre-vingtième kilomètre"),
        Case("fr", "Prenez la 3ème sortie", "Prenez la troisième sortie"),
        Case("fr", "<say-as interpret-as=\"cardinal\">71</say-as>", "soixante et onze"),
        Case("fr", "<say-as interpret-as=\"cardinal\">80</say-as>", "quatre-vingts"),
        Case("fr", "<say-as interpret-as=\"cardinal\">91</say-as>", "quatre-vingt-onze"),
        Case("fr", "<say-as interpret-as=\"cardinal\">200</say-as>", "deux cents"),
        Case("fr", "<say-as interpret-as=\"cardinal\">1984</say-as>", "mille neuf cent quatre-vingt-quatre"),
        Case("fr", "<say-as interpret-as=\"number\">2,5</say-as>", "deux virgule cinq"),
        Case("fr", "<say-as interpret-as=\"cardinal\" detail=\"feminine\">21</say-as>", "vingt et une"),
        Case(
            "fr", "Prenez la <say-as interpret-as=\"ordinal\">3</say-as> sortie", "Prenez la troisième sortie"
        ),
        Case(
            "fr", "Prenez la <say-as interpret-as=\"ordinal\">1</say-as> sortie", "Prenez la première sortie"),
        Case("fr", "Au <say-as interpret-as=\"ordinal\">1</say-as> carrefour", "Au premier carrefour"),
        Case("fr", "<say-as interpret-as=\"ordinal\" detail=\"feminine\">1</say-as>", "première"),
        Case("fr", "<say-as interpret-as=\"ordinal\">5</say-as>", "cinquième"),
        Case("fr", "<say-as interpret-as=\"ordinal\">9</say-as>", "neuvième"),
        Case("fr", "<say-as interpret-as=\"digits\">0815</say-as>", "zéro huit un cinq"),
        Case("fr", "<say-as interpret-as=\"characters\">RN</say-as>", "R N"),
        Case("fr", "<say-as interpret-as=\"fraction\">3/4</say-as>", "trois quarts"),
        Case("fr", "<say-as interpret-as=\"fraction\">1/2</say-as>", "un demi"),
        Case("fr", "<say-as interpret-as=\"fraction\">2/5</say-as>", "deux cinquièmes"),
        Case("fr", "<say-as interpret-as=\"unit\">90 km/h</say-as>", "quatre-vingt-dix kilomètres par heure"),
        Case("fr", "<say-as interpret-as=\"unit\">1 h</say-as>", "une heure"),
        Case(
            "fr", "<say-as interpret-as=\"date\" format=\"dmy\">25/12/2024</say-as>",
            "vingt-cinq décembre deux mille vingt-quatre"),
        Case(
            "fr", "<say-as interpret-as=\"date\">01/05/2024</say-as>", "premier mai deux mille vingt-quatre"),
        Case(
            "fr", "<say-as interpret-as=\"date\" format=\"my\">07/1998</say-as>",
            "juillet mille neuf cent quatre-vingt-dix-huit"),
        Case("fr", "<say-as interpret-as=\"time\">14:30</say-as>", "quatorze heures trente"),
        Case("fr", "<say-as interpret-as=\"time\">1h05</say-as>", "une heure cinq"),
        Case("fr", "<say-as interpret-as=\"time\">21:00</say-as>", "vingt et une heures"),
        Case(
            "fr", "<say-as interpret-as=\"telephone\">01 23 45 67 89</say-as>",
            "zéro un, vingt-trois, quarante-cinq, soixante-sept, quatre-vingt-neuf"),
        Case("fr", "<say-as interpret-as=\"address\">A9</say-as>", "A neuf"),
        Case("fr", "<say-as interpret-as=\"address\">12</say-as> rue de Rivoli", "douze rue de Rivoli"),
        Case("fr", "<say-as interpret-as=\"unit\">1,5 km</say-as>", "un virgule cinq kilomètre"),
        Case("fr", "<say-as interpret-as=\"currency\">$45</say-as>", "quarante-cinq dollars"),
        Case("fr", "<say-as interpret-as=\"currency\">3,50 €</say-as>", "trois euros et cinquante centimes"),
        Case("fr", "<say-as interpret-as=\"currency\">£10</say-as>", "dix livres"),
        Case("fr", "<say-as interpret-as=\"fraction\">2+1/2</say-as>", "deux et demi"),
        Case("fr", "<say-as interpret-as=\"time\">1'21\"</say-as>", "une minute vingt et une secondes"),
    ]

    public static let german: [Case] = [
        Case("de", "Nehmen Sie die 3. Ausfahrt", "Nehmen Sie die dritte Ausfahrt"),
        Case("de", "An der 3. Ausfahrt rechts abbiegen", "An der dritten Ausfahrt rechts abbiegen"),
        Case("de", "Im 2. Kreisverkehr geradeaus", "Im zweiten Kreisverkehr geradeaus"),
        Case(
            "de", "Fahren Sie auf die A 9 und dann auf die B 27",
            "Fahren Sie auf die A neun und dann auf die B siebenundzwanzig"),
        Case("de", "Weiter auf der B27", "Weiter auf der B siebenundzwanzig"),
        Case("de", "Biegen Sie in die Hauptstr. ab", "Biegen Sie in die Hauptstraße ab"),
        Case("de", "Schillerpl. 3", "Schillerplatz 3"),
        Case("de", "In 1,2 km rechts halten", "In eins Komma zwei Kilometer rechts halten"),
        Case("de", "In 500 m links abbiegen", "In fünfhundert Meter links abbiegen"),
        Case("de", "Nach 1 km links", "Nach einem Kilometer links"),
        Case("de", "Richtung St. Pölten", "Richtung Sankt Pölten"),
        Case("de", "Ausfahrt 12 nehmen", "Ausfahrt zwölf nehmen"),
        Case("de", "Auf die E 45 fahren", "Auf die E fünfundvierzig fahren"),
        Case("de", "Berliner Str. 12", "Berliner Straße 12"),
        Case("de", "Um 3. Dann", "Um 3. Dann"),
        Case("de", "<say-as interpret-as=\"cardinal\">1066</say-as>", "tausendsechsundsechzig"),
        Case("de", "<say-as interpret-as=\"cardinal\">21</say-as>", "einundzwanzig"),
        Case("de", "<say-as interpret-as=\"cardinal\">1</say-as>", "eins"),
        Case("de", "<say-as interpret-as=\"cardinal\">101</say-as>", "hunderteins"),
        Case("de", "<say-as interpret-as=\"cardinal\">2000000</say-as>", "zwei Millionen"),
        Case("de", "<say-as interpret-as=\"number\">3,75</say-as>", "drei Komma sieben fünf"),
        Case(
            "de", "Nehmen Sie die <say-as interpret-as=\"ordinal\">3</say-as> Ausfahrt",
            "Nehmen Sie die dritte Ausfahrt"),
        Case("de", "An der <say-as interpret-as=\"ordinal\">3</say-as> Ausfahrt", "An der dritten Ausfahrt"),
        Case("de", "Im <say-as interpret-as=\"ordinal\">1</say-as> Stock", "Im ersten Stock"),
        Case(
            "de", "<say-as interpret-as=\"ordinal\" detail=\"masculine nominative indefinite\">7</say-as>",
            "siebter"),
        Case("de", "<say-as interpret-as=\"ordinal\" detail=\"en\">20</say-as>", "zwanzigsten"),
        Case("de", "<say-as interpret-as=\"ordinal\">8.</say-as>", "achte"),
        Case("de", "<say-as interpret-as=\"ordinal\">101</say-as>", "hundert erste"),
        Case("de", "<say-as interpret-as=\"digits\">0815</say-as>", "null acht eins fünf"),
        Case("de", "<say-as interpret-as=\"characters\">ADAC</say-as>", "A D A C"),
        Case("de", "<say-as interpret-as=\"fraction\">3/4</say-as>", "drei Viertel"),
        Case("de", "<say-as interpret-as=\"fraction\">5/8</say-as>", "fünf Achtel"),
        Case("de", "<say-as interpret-as=\"fraction\">1 1/2</say-as>", "eins und einhalb"),
        Case("de", "<say-as interpret-as=\"unit\">100 km/h</say-as>", "hundert Kilometer pro Stunde"),
        Case("de", "<say-as interpret-as=\"unit\">1 mi</say-as>", "eine Meile"),
        Case("de", "<say-as interpret-as=\"unit\">2 mi</say-as>", "zwei Meilen"),
        Case(
            "de", "<say-as interpret-as=\"date\">25.12.1999</say-as>",
            "fünfundzwanzigster Dezember neunzehnhundertneunundneunzig"),
        Case("de", "<say-as interpret-as=\"date\" format=\"dm\">3.10.</say-as>", "dritter Oktober"),
        Case(
            "de", "<say-as interpret-as=\"date\" format=\"ymd\">2024-02-01</say-as>",
            "erster Februar zweitausendvierundzwanzig"),
        Case("de", "<say-as interpret-as=\"time\">14:30</say-as>", "vierzehn Uhr dreißig"),
        Case("de", "<say-as interpret-as=\"time\">1:05</say-as>", "ein Uhr fünf"),
        Case(
            "de", "<say-as interpret-as=\"telephone\">030 1234567</say-as>",
            "null drei null, eins zwei drei vier fünf sechs sieben"),
        Case("de", "<say-as interpret-as=\"address\">A 7</say-as>", "A sieben"),
        Case("de", "<say-as interpret-as=\"address\">Hauptstraße 12</say-as>", "Hauptstraße zwölf"),
        Case("de", "<say-as interpret-as=\"currency\">$45</say-as>", "fünfundvierzig Dollar"),
        Case("de", "<say-as interpret-as=\"currency\">3,50 €</say-as>", "drei Euro und fünfzig Cent"),
        Case("de", "<say-as interpret-as=\"currency\">£1</say-as>", "ein Pfund"),
        Case("de", "<say-as interpret-as=\"fraction\">2+1/2</say-as>", "zwei und einhalb"),
        Case("de", "<say-as interpret-as=\"time\">1'21\"</say-as>", "eine Minute einundzwanzig Sekunden"),
    ]

    public static let spanish: [Case] = [
        Case("es", "Toma la 3.ª salida", "Toma la tercera salida"),
        Case("es", "En el 1.er cruce, gira a la derecha", "En el primer cruce, gira a la derecha"),
        Case("es", "Toma la 1.ª salida", "Toma la primera salida"),
        Case("es", "En la 2ª rotonda", "En la segunda rotonda"),
        Case("es", "Gira en el 3.º semáforo", "Gira en el tercer semáforo"),
        Case("es", "Gira a la derecha en C/ Mayor", "Gira a la derecha en Calle Mayor"),
        Case("es", "Continúa por Avda. de América", "Continúa por Avenida de América"),
        Case("es", "Toma la A-7 hacia Málaga", "Toma la A siete hacia Málaga"),
        Case("es", "Incorpórate a la AP-7", "Incorpórate a la A P siete"),
        Case(
            "es", "En 1,5 km, mantente a la izquierda",
            "En uno coma cinco kilómetros, mantente a la izquierda"),
        Case("es", "En 500 m, gira a la izquierda", "En quinientos metros, gira a la izquierda"),
        Case("es", "En 1 mi", "En una milla"),
        Case("es", "Sigue por Ctra. de Valencia", "Sigue por Carretera de Valencia"),
        Case("es", "Toma la salida 21", "Toma la salida veintiuno"),
        Case("es", "Pza. Mayor", "Plaza Mayor"),
        Case("es", "<say-as interpret-as=\"cardinal\">21</say-as>", "veintiuno"),
        Case("es", "<say-as interpret-as=\"cardinal\">500</say-as>", "quinientos"),
        Case("es", "<say-as interpret-as=\"cardinal\">1984</say-as>", "mil novecientos ochenta y cuatro"),
        Case("es", "<say-as interpret-as=\"cardinal\" detail=\"feminine\">200</say-as>", "doscientas"),
        Case("es", "<say-as interpret-as=\"number\">100</say-as>", "cien"),
        Case("es", "<say-as interpret-as=\"number\">2,5</say-as>", "dos coma cinco"),
        Case("es", "Toma la <say-as interpret-as=\"ordinal\">3</say-as> salida", "Toma la tercera salida"),
        Case("es", "En el <say-as interpret-as=\"ordinal\">3</say-as> cruce", "En el tercer cruce"),
        Case("es", "<say-as interpret-as=\"ordinal\">3</say-as>", "tercero"),
        Case("es", "<say-as interpret-as=\"ordinal\" detail=\"feminine\">1</say-as>", "primera"),
        Case("es", "<say-as interpret-as=\"ordinal\">13</say-as>", "decimotercero"),
        Case("es", "<say-as interpret-as=\"ordinal\">21</say-as>", "vigésimo primero"),
        Case("es", "<say-as interpret-as=\"digits\">0815</say-as>", "cero ocho uno cinco"),
        Case("es", "<say-as interpret-as=\"characters\">DGT</say-as>", "D G T"),
        Case("es", "<say-as interpret-as=\"fraction\">2/3</say-as>", "dos tercios"),
        Case("es", "<say-as interpret-as=\"fraction\">1/2</say-as>", "un medio"),
        Case("es", "<say-as interpret-as=\"fraction\">5/12</say-as>", "cinco doceavos"),
        Case("es", "<say-as interpret-as=\"unit\">120 km/h</say-as>", "ciento veinte kilómetros por hora"),
        Case("es", "<say-as interpret-as=\"unit\">1 h</say-as>", "una hora"),
        Case(
            "es", "<say-as interpret-as=\"date\">01/12/2024</say-as>",
            "primero de diciembre de dos mil veinticuatro"),
        Case(
            "es", "<say-as interpret-as=\"date\" format=\"ymd\">1999-07-25</say-as>",
            "veinticinco de julio de mil novecientos noventa y nueve"),
        Case("es", "<say-as interpret-as=\"date\" format=\"my\">05/2010</say-as>", "mayo de dos mil diez"),
        Case("es", "<say-as interpret-as=\"time\">14:30</say-as>", "catorce y treinta"),
        Case("es", "<say-as interpret-as=\"time\">1:00</say-as>", "una en punto"),
        Case("es", "<say-as interpret-as=\"time\">9:15 pm</say-as>", "nueve y quince de la tarde"),
        Case(
            "es", "<say-as interpret-as=\"telephone\">+34 912 345 678</say-as>",
            "más tres cuatro, nueve uno dos, tres cuatro cinco, seis siete ocho"),
        Case("es", "<say-as interpret-as=\"address\">N-340</say-as>", "N trescientos cuarenta"),
        Case("es", "<say-as interpret-as=\"address\">Calle Mayor 21</say-as>", "Calle Mayor veintiuno"),
        Case("es", "<say-as interpret-as=\"currency\">$45</say-as>", "cuarenta y cinco dólares"),
        Case("es", "<say-as interpret-as=\"currency\">3,50 €</say-as>", "tres euros con cincuenta céntimos"),
        Case("es", "<say-as interpret-as=\"currency\">£1</say-as>", "una libra"),
        Case("es", "<say-as interpret-as=\"fraction\">2+1/2</say-as>", "dos y medio"),
        Case("es", "<say-as interpret-as=\"time\">1'21\"</say-as>", "un minuto veintiún segundos"),
    ]
}
