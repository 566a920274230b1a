import VoiceGuidance

/// Puts a render's audio through the voice's speed gain on its way to the handler; words and
/// marks pass at once (their sample offsets do not change).
final class SpeedGainHandler {
    private var stage: SpeedGainStage?
    private let handler: (RenderEvent) -> RenderControl
    private var isStopped = false

    init(stage: SpeedGainStage?, handler: @escaping (RenderEvent) -> RenderControl) {
        self.stage = stage
        self.handler = handler
    }

    /// Takes one event of the render.
    func take(_ event: RenderEvent) -> RenderControl {
        guard var current = stage, case .audio(let chunk) = event else { return pass(event) }
        let ready = current.process(chunk)
        stage = current
        return ready.isEmpty ? .continue : pass(.audio(ready))
    }

    /// Hands out what the stage still holds.
    func finish() {
        guard var current = stage, !isStopped else { return }
        let rest = current.flush()
        stage = current
        if !rest.isEmpty { _ = pass(.audio(rest)) }
    }

    private func pass(_ event: RenderEvent) -> RenderControl {
        let control = handler(event)
        if control == .stop { isStopped = true }
        return control
    }
}
