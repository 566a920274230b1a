import Foundation
import GuidanceService
import VoiceGuidance

/// `serve --gpsd`: the fixes gpsd reports (read by `LivePositionSource.readGPSD`, with its
/// reconnects) handed to the daemon's `GuidanceService`, each timed by its arrival.
final class ServicePositions: LiveFixReceiver {
    private let service: GuidanceService
    private let stopped = Locked(false)

    init(service: GuidanceService) { self.service = service }

    var wasStopped: Bool { stopped.withLock { $0 } }

    /// Ends reading (the thread notices within `LivePositionSource.readWait`).
    func stop() { stopped.withLock { $0 = true } }

    /// A fix received now: on the daemon's guidance clock (gpsd's own clock may repeat or jump).
    func deliverNow(_ position: Position) {
        service.receive(
            PositionFix(
                latitude: position.latitude, longitude: position.longitude, speed: position.speed,
                course: position.course, accuracy: position.horizontalAccuracy))
    }

    /// Starts reading gpsd at `host:port` on a thread of its own; what happens goes to stderr.
    func follow(host: String, port: Int) {
        let thread = Thread { [self] in
            LivePositionSource.readGPSD(host: host, port: port, into: self) {
                Console.error("voiceguide serve: \($0)")
            }
        }
        thread.start()
    }
}
