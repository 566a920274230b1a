/// Who may talk to the daemon: its own user, and the members of one group if one is given.
public struct SocketAccess: Sendable, Equatable {
    /// The daemon's user id.
    public var ownerUID: UInt32
    /// The group opened to (`--group`), if any.
    public var groupID: UInt32?
    /// The names listed as the group's members (users whose primary group it is count too).
    public var groupMembers: [String]

    public init(ownerUID: UInt32, groupID: UInt32? = nil, groupMembers: [String] = []) {
        self.ownerUID = ownerUID
        self.groupID = groupID
        self.groupMembers = groupMembers
    }

    /// The daemon's user only.
    public static var ownerOnly: SocketAccess { SocketAccess(ownerUID: SocketCalls.userID) }

    /// The daemon's user and the group `name`.
    ///
    /// - Throws: `SocketError` when there is no such group.
    public static func group(named name: String) throws(SocketError) -> SocketAccess {
        guard let group = SocketCalls.group(named: name) else {
            throw SocketError("no group named '\(name)'")
        }
        return SocketAccess(ownerUID: SocketCalls.userID, groupID: group.gid, groupMembers: group.members)
    }

    /// The login name of a user id, or nil.
    public static func userName(_ uid: UInt32) -> String? { SocketCalls.userName(uid) }

    /// True when a peer with these credentials may use the daemon.
    public func allows(_ peer: PeerCredentials, userName: (UInt32) -> String? = { SocketAccess.userName($0) })
        -> Bool
    {
        if peer.uid == ownerUID { return true }
        guard let groupID else { return false }
        if peer.gid == groupID { return true }
        guard let name = userName(peer.uid) else { return false }
        return groupMembers.contains(name)
    }
}
