import VoiceGuidance

/// `position`: GPS fixes matched to the route.
extension GuidanceService {
    func position(_ fix: PositionFix) async throws(ProtocolError) -> [(String, JSONValue)] {
        guard route != nil else { throw ProtocolError(.noRoute, "position needs a route; send route first") }
        throw ProtocolError(.failed, "position matching is not available in this build; send progress")
    }
}
