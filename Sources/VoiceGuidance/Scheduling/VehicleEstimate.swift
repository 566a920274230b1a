/// Where the vehicle is along the route and how fast it goes, as the scheduler believes from the
/// fixes: the position follows a fix at once when it is precise or far off the prediction, and is
/// blended with the prediction otherwise; the speed estimate rises at once and falls slowly.
struct VehicleEstimate {
    /// True once a fix has been taken.
    var hasFix = false
    /// Meters from the route's start.
    var position = 0.0
    /// The speed estimate, m/s.
    var speed = 0.0
    /// Time of the last fix taken, seconds.
    var lastTime = -Double.infinity
    /// Accuracy of the last fix, meters (0: unknown or exact).
    var accuracy = 0.0

    /// Takes a fix at `fix` meters, `measured` m/s, `accuracy` meters, `interval` seconds after
    /// the one before.
    mutating func take(
        fix: Double, speed measured: Double, accuracy: Double, at time: Double, interval: Double,
        timing: AnnouncementTiming
    ) {
        self.accuracy = accuracy
        if !hasFix {
            position = fix
            speed = measured
            hasFix = true
        } else {
            let predicted = position + measured * interval
            let innovation = fix - predicted
            if abs(innovation) > timing.jumpThreshold + timing.jumpAccuracyFactor * accuracy
                || accuracy <= timing.exactFixAccuracy
            {
                position = fix
            } else {
                position = predicted + timing.fixWeight * innovation
            }
            if measured >= speed {
                speed = measured
            } else {
                speed = max(measured, speed - timing.speedDecay * interval)
            }
        }
        lastTime = time
    }
}
