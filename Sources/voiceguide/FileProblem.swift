import Foundation
import VoiceGuidance

/// Foundation's file errors in words, with the path: "out/sub: a file, not a folder, is at out"
/// rather than "(NSCocoaErrorDomain error 512.)".
enum FileProblem {
    /// Creates `folder` and its parents, or throws a `CommandFailure` saying in words why not.
    static func createFolder(_ folder: URL) throws {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure(
                "cannot create the folder \(folder.path): \(reason(creating: folder.path, error))")
        }
    }

    /// The bytes of the file at `path` (`-`: standard input; a pipe or device is read too), at
    /// most `limit` of them, or a `CommandFailure` saying in words why not: no such file, a
    /// folder, no permission (exit 66), over the limit (exit 1, after reading one byte more).
    static func contents(of path: String, limit: Int) throws -> Data {
        do {
            return try BoundedFile.read(path, limit: limit)
        } catch {
            throw CommandFailure(
                error.description, status: error.isMissing ? ExitStatus.noInput : ExitStatus.failure)
        }
    }

    /// Why creating the folder `path` failed: a file in the way, a missing permission, or the
    /// system's own words for the error.
    static func reason(creating path: String, _ error: any Error) -> String {
        var isFolder: ObjCBool = false
        var ancestor = URL(fileURLWithPath: path).standardizedFileURL
        while ancestor.path != "/" {
            if FileManager.default.fileExists(atPath: ancestor.path, isDirectory: &isFolder) {
                if !isFolder.boolValue {
                    return "\(ancestor.path) is a file, not a folder"
                }
                if !FileManager.default.isWritableFile(atPath: ancestor.path) {
                    return "no permission to write in \(ancestor.path)"
                }
                break
            }
            ancestor.deleteLastPathComponent()
        }
        return words(error)
    }

    /// An error in words: the POSIX reason under a Foundation file error ("No space left on
    /// device"), with the path it names, else the error's own description.
    static func words(_ error: any Error, namingPath: Bool = true) -> String {
        let nsError = error as NSError
        guard nsError.domain == NSCocoaErrorDomain || nsError.domain == NSPOSIXErrorDomain else {
            return "\(error)"
        }
        var reason: String?
        if nsError.domain == NSPOSIXErrorDomain {
            reason = String(cString: strerror(Int32(nsError.code)))
        } else if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError,
            underlying.domain == NSPOSIXErrorDomain
        {
            reason = String(cString: strerror(Int32(underlying.code)))
        }
        let path =
            (nsError.userInfo[NSFilePathErrorKey] as? String) ?? (nsError.userInfo["NSFilePath"] as? String)
        let text = reason ?? cocoaReason(nsError.code)
        guard namingPath, let path else { return text }
        return "\(path): \(text)"
    }

    /// Foundation's file error codes in words.
    private static func cocoaReason(_ code: Int) -> String {
        switch code {
        case NSFileNoSuchFileError, NSFileReadNoSuchFileError: "no such file or folder"
        case NSFileWriteNoPermissionError, NSFileReadNoPermissionError: "permission denied"
        case NSFileWriteOutOfSpaceError: "no space left on the device"
        case NSFileWriteVolumeReadOnlyError: "the file system is read-only"
        case NSFileWriteFileExistsError: "something is already there"
        case NSFileReadCorruptFileError: "the file cannot be read in this format"
        case NSFileReadTooLargeError: "the file is too large"
        default: "the file system refused (error \(code))"
        }
    }
}
