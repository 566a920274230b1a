import Foundation
import Testing
import VoiceGuidance
import VoiceGuidanceTesting

/// The 573 real `ssmlAnnouncement` strings of the Directions fixtures in Tests/Fixtures.
@Suite struct SSMLCorpusTests {
    /// The one fixture string with a broken start tag (`<amazon: effectname="drc">`).
    static let brokenFile = "navigation-ios_route-with-not-present-road-classes.json"

    static func isBroken(_ announcement: TestFixtures.Announcement) -> Bool {
        announcement.file == brokenFile && announcement.ssml.contains("<amazon: ")
    }

    @Test func everyAnnouncementParsesExceptTheBrokenOne() throws {
        let announcements = try TestFixtures.announcements()
        #expect(announcements.count == 573)
        let parser = SSMLParser()
        var failures: [String] = []
        var broken: [(TestFixtures.Announcement, SSMLError)] = []
        for announcement in announcements {
            do {
                let utterance = try parser.parse(announcement.ssml)
                if !utterance.warnings.isEmpty {
                    failures.append("\(announcement.ssml): \(utterance.warnings)")
                }
                if utterance.segments.isEmpty { failures.append("\(announcement.ssml): no segments") }
            } catch {
                broken.append((announcement, error))
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
        #expect(broken.count == 1)
        let (announcement, error) = try #require(broken.first)
        #expect(announcement.file == Self.brokenFile)
        #expect(announcement.ssml.hasPrefix("<speak><amazon: effectname="))
        #expect(error.kind == .malformed)
        // Column 8 is the '<' of "<amazon: effectname=…>", right after "<speak>".
        #expect(error.location == SourceLocation(line: 1, column: 8))
        let column = try #require(error.location?.column)
        let offset = announcement.ssml.unicodeScalars.index(
            announcement.ssml.unicodeScalars.startIndex, offsetBy: column - 1)
        #expect(announcement.ssml.unicodeScalars[offset...].starts(with: "<amazon: ".unicodeScalars))
        #expect(error.message.contains("amazon:"))
    }

    @Test func noTextIsLostOrAdded() throws {
        // The characters between the tags, in order, are exactly the characters of the segments
        // (white space aside: segment edges are trimmed). The plain `announcement` field is not
        // a reference: in several fixtures it words the road differently from the SSML.
        let parser = SSMLParser()
        var mismatches: [String] = []
        var compared = 0
        for announcement in try TestFixtures.announcements() where !Self.isBroken(announcement) {
            let utterance = try parser.parse(announcement.ssml)
            let between = announcement.ssml.replacing(/<[^>]*>/, with: "").filter { !$0.isWhitespace }
            let spoken = utterance.segments.compactMap { segment -> String? in
                if case .text(let text) = segment { return text.text }
                return nil
            }
            .joined().filter { !$0.isWhitespace }
            compared += 1
            if spoken != between { mismatches.append("\(spoken) ≠ \(between)") }
        }
        #expect(compared == 572)
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches, e.g. \(mismatches.prefix(3))")
    }

    @Test func corpusSegmentsCarryMapboxAttributes() throws {
        let parser = SSMLParser()
        var sayAsCount = 0
        var compressed = 0
        var total = 0
        for announcement in try TestFixtures.announcements() where !Self.isBroken(announcement) {
            for case .text(let segment) in try parser.parse(announcement.ssml).segments {
                total += 1
                if segment.sayAs != nil { sayAsCount += 1 }
                if segment.isCompressed { compressed += 1 }
                #expect(segment.location != nil)
                #expect(segment.text == segment.text.trimmingCharacters(in: .whitespaces))
            }
        }
        // 302 say-as elements in the corpus; 533 working drc effects.
        #expect(sayAsCount == 302)
        #expect(compressed > 0 && compressed < total)
    }
}
