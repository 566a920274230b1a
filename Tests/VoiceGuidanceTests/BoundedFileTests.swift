import Foundation
import Testing
import VoiceGuidance

#if canImport(Glibc)
    import Glibc
#endif

/// `BoundedFile`: whole inputs read, never more than their limit plus one byte.
@Suite struct BoundedFileTests {
    private static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "bounded-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private static func reason(_ body: () throws(BoundedFile.ReadError) -> Data) -> BoundedFile.ReadError
        .Reason?
    {
        do {
            _ = try body()
            return nil
        } catch {
            return error.reason
        }
    }

    @Test func readsAFileUpToItsLimitExactly() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("route.json").path
        let bytes = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        try bytes.write(to: URL(fileURLWithPath: path))
        #expect(try BoundedFile.read(path, limit: 200_000) == bytes)
        #expect(
            Self.reason { () throws(BoundedFile.ReadError) in try BoundedFile.read(path, limit: 199_999) }
                == .tooLarge(limit: 199_999))
        #expect(try BoundedFile.read(path, limit: 200_000, regularFilesOnly: true) == bytes)
        // Through a symbolic link: the target is read.
        let link = folder.appendingPathComponent("link.json").path
        #expect(symlink(path, link) == 0)
        #expect(try BoundedFile.read(link, limit: 1 << 20, regularFilesOnly: true) == bytes)
    }

    /// `/dev/zero` never ends: the read stops one byte past the limit.
    @Test func anEndlessDeviceStopsAtTheLimit() {
        let error = #expect(throws: BoundedFile.ReadError.self) {
            try BoundedFile.read("/dev/zero", limit: 1 << 20)
        }
        #expect(error?.reason == .tooLarge(limit: 1 << 20))
        #expect(error?.description == "/dev/zero is over the limit of 1 MiB (1048576 bytes)")
        #expect(error?.isMissing == false)
        // A daemon takes regular files only.
        let refused = #expect(throws: BoundedFile.ReadError.self) {
            try BoundedFile.read("/dev/zero", limit: 1 << 20, regularFilesOnly: true)
        }
        #expect(refused?.reason == .notRegularFile)
        #expect(refused?.description.contains("not a regular file") == true)
    }

    @Test func aFIFOIsReadToItsEndOrRefused() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("pipe").path
        #expect(mkfifo(fifo, 0o600) == 0)
        // Refused without being opened (opening would wait for a writer).
        #expect(
            Self.reason { () throws(BoundedFile.ReadError) in
                try BoundedFile.read(fifo, limit: 100, regularFilesOnly: true)
            } == .notRegularFile)
        let writer = Thread {
            let descriptor = open(fifo, O_WRONLY)
            let text = Array("{\"routes\":[]}".utf8)
            _ = text.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            close(descriptor)
        }
        writer.start()
        #expect(try BoundedFile.read(fifo, limit: 100) == Data("{\"routes\":[]}".utf8))
        // A FIFO swapped in after the path was looked at is refused once open, by what the
        // descriptor is (and opened without waiting for a writer).
        let opened = open(fifo, O_RDONLY | O_NONBLOCK)
        defer { close(opened) }
        #expect(BoundedFile.refusal(ofOpened: opened) == .notRegularFile)
        let file = folder.appendingPathComponent("route.json").path
        try Data("{}".utf8).write(to: URL(fileURLWithPath: file))
        let regular = open(file, O_RDONLY)
        defer { close(regular) }
        #expect(BoundedFile.refusal(ofOpened: regular) == nil)
        let folderDescriptor = open(folder.path, O_RDONLY)
        defer { close(folderDescriptor) }
        #expect(BoundedFile.refusal(ofOpened: folderDescriptor) == .folder)
    }

    @Test func missingThingsSayWhat() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("none.json").path
        let absent = #expect(throws: BoundedFile.ReadError.self) { try BoundedFile.read(missing, limit: 10) }
        #expect(absent?.description == "cannot read \(missing): no such file")
        #expect(absent?.isMissing == true)
        let asFolder = #expect(throws: BoundedFile.ReadError.self) {
            try BoundedFile.read(folder.path, limit: 10)
        }
        #expect(asFolder?.description == "cannot read \(folder.path): it is a folder, not a file")
        // A file where a folder should be is missing too; what stat says otherwise is told in words.
        let underFile = folder.appendingPathComponent("small.txt/route.json").path
        try Data("abc".utf8).write(to: folder.appendingPathComponent("small.txt"))
        #expect(
            Self.reason { () throws(BoundedFile.ReadError) in try BoundedFile.read(underFile, limit: 10) }
                == .noSuchFile)
        let loop = folder.appendingPathComponent("loop").path
        #expect(symlink(loop, loop) == 0)
        let looped = #expect(throws: BoundedFile.ReadError.self) { try BoundedFile.read(loop, limit: 10) }
        #expect(looped?.description == "cannot read \(loop): too many levels of symbolic links")
        #expect(looped?.isMissing == true)
        // A huge limit cannot overflow the count of bytes still wanted.
        let path = folder.appendingPathComponent("small").path
        try Data("abc".utf8).write(to: URL(fileURLWithPath: path))
        #expect(try BoundedFile.read(path, limit: .max) == Data("abc".utf8))
        #expect(
            Self.reason { () throws(BoundedFile.ReadError) in try BoundedFile.read(path, limit: 2) }
                == .tooLarge(limit: 2))
        let empty = folder.appendingPathComponent("empty").path
        try Data().write(to: URL(fileURLWithPath: empty))
        #expect(try BoundedFile.read(empty, limit: 0) == Data())
    }
}
