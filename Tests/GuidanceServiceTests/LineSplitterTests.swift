import Foundation
import GuidanceService
import Testing

@Suite struct LineSplitterTests {
    @Test func splitsLinesAcrossChunks() {
        var buffer = LineSplitter(limit: 100)
        #expect(buffer.append(Data("{\"a\"".utf8)) == [])
        #expect(
            buffer.append(Data(":1}\n{\"b\":2}\r\n\n{\"c\"".utf8)) == [
                .line(Data("{\"a\":1}".utf8)), .line(Data("{\"b\":2}".utf8)),
            ])
        #expect(buffer.heldBytes == 4)
        #expect(buffer.append(Data(":3}\n".utf8)) == [.line(Data("{\"c\":3}".utf8))])
        #expect(buffer.heldBytes == 0)
    }

    @Test func overlongLineIsReportedOnceAndDiscardedToItsNewline() {
        var buffer = LineSplitter(limit: 10)
        var items: [LineSplitter.Item] = []
        for _ in 0..<1000 { items += buffer.append(Data(repeating: 0x41, count: 7)) }
        #expect(items == [.tooLong])
        #expect(buffer.heldBytes <= 10)
        #expect(buffer.append(Data("AAAA\nok\n".utf8)) == [.line(Data("ok".utf8))])
    }

    @Test func lineOfExactlyTheLimitIsKept() {
        var buffer = LineSplitter(limit: 5)
        #expect(
            buffer.append(Data("12345\n123456\n1\n".utf8)) == [
                .line(Data("12345".utf8)), .tooLong, .line(Data("1".utf8)),
            ])
    }
}
