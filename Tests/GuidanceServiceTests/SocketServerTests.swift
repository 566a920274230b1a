import Foundation
import GuidanceService
import Testing
import VoiceGuidance
import VoiceGuidanceTesting

/// A real `SocketServer` in a temporary folder, answering through a `ServiceHarness`.
final class ServerHarness {
    let folder: URL
    let path: String
    let harness: ServiceHarness
    let server: SocketServer

    init(limits: ProtocolLimits = ProtocolLimits(), access: SocketAccess = .ownerOnly) throws {
        folder = try CommandRunner.temporaryFolder()
        path = folder.appendingPathComponent("voiceguide.sock").path
        harness = try ServiceHarness(limits: limits)
        let service = harness.service
        server = SocketServer(
            path: path, access: access, limits: limits, quickHandler: { service.quickReply(to: $0) },
            handler: { connection, line in await service.reply(to: line, from: connection) },
            onClose: { await service.disconnected($0) })
        try server.start()
    }

    deinit {
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    func client() throws -> GuidanceClient { try GuidanceClient(path: path) }
}

/// A client handed to one other thread (each is used by one thread at a time).
final class ClientBox: @unchecked Sendable {
    let client: GuidanceClient
    init(_ client: GuidanceClient) { self.client = client }
}

@Suite(.serialized) struct SocketServerTests {
    @Test func socketIsPrivateAndRemovedOnStop() throws {
        let server = try ServerHarness()
        let attributes = try FileManager.default.attributesOfItem(atPath: server.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect((attributes[.type] as? FileAttributeType) == .typeSocket)
        server.server.stop()
        #expect(!FileManager.default.fileExists(atPath: server.path))
    }

    @Test func malformedTableOverTheSocketThenGuidanceGoesOn() throws {
        let server = try ServerHarness()
        let client = try server.client()
        for malformed in MalformedRequests.cases { try client.send(Data((malformed.line + "\n").utf8)) }
        for malformed in MalformedRequests.cases {
            let reply = try #require(try client.readMessage())
            #expect(reply.errorCode == malformed.code, "\(malformed): \(reply.serialized)")
            #expect(reply.errorMessage?.contains(malformed.message) == true, "\(malformed)")
        }
        var huge = Data(#"{"id":1,"cmd":"announce","text":""#.utf8)
        huge.append(Data(repeating: 0x61, count: 2 << 20))
        huge.append(Data("\"}\n".utf8))
        try client.send(huge)
        let tooLong = try #require(try client.readMessage())
        #expect(tooLong.errorCode == "line_too_long")
        #expect(tooLong["id"] == .null)
        let hello = try client.request(.object([("id", .string("h")), ("cmd", .string("hello"))]))
        #expect(hello["ok"] == .bool(true))
        #expect(hello["id"] == .string("h"))
    }

    @Test func sixtyFourClientsAtOnce() throws {
        let server = try ServerHarness()
        let clients = try (0..<64).map { _ in ClientBox(try server.client()) }
        let results = Locked([Bool](repeating: false, count: 64))
        DispatchQueue.concurrentPerform(iterations: 64) { index in
            let client = clients[index].client
            var good = true
            for request in 0..<20 {
                let id = Double(index * 1000 + request)
                guard
                    let reply = try? client.request(
                        .object([("id", .number(id)), ("cmd", .string("status"))])),
                    reply["id"] == .number(id), reply["ok"] == .bool(true)
                else {
                    good = false
                    break
                }
            }
            results.withLock { $0[index] = good }
        }
        #expect(results.withLock { $0 } == [Bool](repeating: true, count: 64))
    }

    @Test func clientsThatVanishMidLineLeaveTheDaemonServing() throws {
        let server = try ServerHarness()
        for index in 0..<50 {
            let client = try server.client()
            try client.send(Data(#"{"id":\#(index),"cmd":"ann"#.utf8))
            if index % 2 == 0 { try client.send(Data("\"}\n{\"id\":1,\"cmd\":\"status\"}\n".utf8)) }
            client.close()
        }
        let client = try server.client()
        let reply = try client.request(.object([("id", .number(1)), ("cmd", .string("hello"))]))
        #expect(reply["ok"] == .bool(true))
    }

    @Test func aSubscriberThatNeverReadsLosesEventsWithACountAndBlocksNobody() throws {
        let limits = ProtocolLimits(maxEventBacklogBytes: 16 << 10)
        let server = try ServerHarness(limits: limits)
        let sleeper = try server.client()
        #expect(
            try sleeper.request(.object([("id", .number(1)), ("cmd", .string("subscribe"))]))["ok"]
                == .bool(true))
        let driver = try server.client()
        let toggles = 4000
        for index in 0..<toggles {
            for command in ["mute", "unmute"] {
                let reply = try driver.request(
                    .object([("id", .number(Double(index))), ("cmd", .string(command))]))
                #expect(reply["ok"] == .bool(true))
            }
        }
        var muted = 0
        var dropped = 0
        func drain() throws {
            while let message = try sleeper.readMessage(timeout: 0.5) {
                if message.string("event") == "muted" { muted += 1 }
                if message.string("event") == "dropped" { dropped += Int(message.number("count") ?? 0) }
            }
        }
        try drain()
        _ = try driver.request(.object([("id", .number(-1)), ("cmd", .string("mute"))]))
        try drain()
        #expect(dropped > 0)
        #expect(muted + dropped == 2 * toggles + 1)
    }

    @Test func everyOneOfTenThousandProgressLinesGetsItsReply() throws {
        let server = try ServerHarness()
        let client = try server.client()
        _ = try client.request(try JSONValue.parse(Data(ServiceHarness.routeLine(id: 0).utf8)))
        var batch = Data()
        for index in 1...10_000 {
            batch.append(
                Data(
                    #"{"id":\#(index),"cmd":"progress","leg":0,"step":1,"distance_remaining":\#(2000 - index % 1000),"speed":12}"#
                        .utf8))
            batch.append(0x0A)
        }
        let writer = client.writer
        let lines = batch
        let sender = Thread { try? writer.send(lines) }
        sender.start()
        var next = 1
        while next <= 10_000, let reply = try client.readMessage(timeout: 20) {
            #expect(reply["id"] == .number(Double(next)))
            #expect(reply["ok"] == .bool(true))
            next += 1
        }
        #expect(next == 10_001)
    }

    @Test func staleSocketIsReplacedLiveOneAndOtherFilesAreNot() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("s.sock").path
        let first = SocketServer(
            path: path, access: .ownerOnly, limits: ProtocolLimits(), handler: { _, _ in Data() },
            onClose: { _ in })
        try first.start()
        let second = SocketServer(
            path: path, access: .ownerOnly, limits: ProtocolLimits(), handler: { _, _ in Data() },
            onClose: { _ in })
        #expect(throws: SocketError.self) { try second.start() }
        do {
            try second.start()
        } catch {
            #expect(error.message.contains("another voiceguide serve is answering"))
        }
        // A crash leaves the file behind: make one with nothing listening.
        first.stop()
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        python.arguments = [
            "-c", "import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])", path,
        ]
        try python.run()
        python.waitUntilExit()
        #expect(FileManager.default.fileExists(atPath: path))
        try second.start()
        let reply = try GuidanceClient(path: path)
        reply.close()
        second.stop()

        let file = folder.appendingPathComponent("not-a-socket").path
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: file))
        let third = SocketServer(
            path: file, access: .ownerOnly, limits: ProtocolLimits(), handler: { _, _ in Data() },
            onClose: { _ in })
        #expect(throws: SocketError.self) { try third.start() }
        #expect(FileManager.default.contents(atPath: file) == Data("keep me".utf8))
    }

    @Test func bytesThatAreNotUTF8AreAParseError() throws {
        let server = try ServerHarness()
        let client = try server.client()
        try client.send(Data([0x7B, 0xFF, 0xFE, 0x00, 0x22, 0x7D, 0x0A]))
        let reply = try #require(try client.readMessage())
        #expect(reply.errorCode == "parse_error")
        #expect(try client.request(.object([("cmd", .string("hello"))]))["ok"] == .bool(true))
    }

    @Test func clientsPastTheLimitAreToldSo() throws {
        let server = try ServerHarness(limits: ProtocolLimits(maxClients: 4))
        let clients = try (0..<4).map { _ in try server.client() }
        for client in clients {
            #expect(try client.request(.object([("cmd", .string("hello"))]))["ok"] == .bool(true))
        }
        let fifth = try server.client()
        #expect(try fifth.readMessage()?.errorCode == "too_many_clients")
        #expect(try fifth.readLine(timeout: 2) == nil)
        clients[0].close()
        Thread.sleep(forTimeInterval: 0.2)
        #expect(try server.client().request(.object([("cmd", .string("hello"))]))["ok"] == .bool(true))
    }

    @Test func aClientThatNeverReadsItsRepliesIsDisconnectedAlone() throws {
        let server = try ServerHarness(limits: ProtocolLimits(maxReplyBacklogBytes: 64 << 10))
        let other = try server.client()
        let greedy = try server.client()
        let writer = greedy.writer
        let lines = Data(String(repeating: #"{"cmd":"status"}"# + "\n", count: 50_000).utf8)
        let sender = Thread { try? writer.send(lines) }
        sender.start()
        Thread.sleep(forTimeInterval: 3)
        #expect(try other.request(.object([("cmd", .string("hello"))]))["ok"] == .bool(true))
        var replies = 0
        while (try? greedy.readLine(timeout: 3)) ?? nil != nil { replies += 1 }
        #expect(replies < 50_000)
        #expect(try other.request(.object([("cmd", .string("status"))]))["ok"] == .bool(true))
    }

    @Test func peerCredentialsDecideWhoMayConnect() {
        let owner = SocketAccess(ownerUID: 1000)
        #expect(owner.allows(PeerCredentials(pid: 1, uid: 1000, gid: 1000)))
        #expect(!owner.allows(PeerCredentials(pid: 1, uid: 0, gid: 0)))
        #expect(!owner.allows(PeerCredentials(pid: 1, uid: 1001, gid: 1000)))
        let group = SocketAccess(ownerUID: 1000, groupID: 500, groupMembers: ["alice"])
        #expect(group.allows(PeerCredentials(pid: 1, uid: 1002, gid: 500)))
        #expect(
            group.allows(PeerCredentials(pid: 1, uid: 1003, gid: 7), userName: { $0 == 1003 ? "alice" : nil })
        )
        #expect(!group.allows(PeerCredentials(pid: 1, uid: 1004, gid: 7), userName: { _ in "bob" }))
    }
}
