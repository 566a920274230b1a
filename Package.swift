// swift-tools-version: 6.0
import PackageDescription

/// Settings shared by every Swift target: Swift 6 mode and the strictest checks.
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "VoiceGuidance",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "VoiceGuidance", targets: ["VoiceGuidance"]),
        .library(name: "VoiceGuidanceTesting", targets: ["VoiceGuidanceTesting"]),
        .library(name: "ESpeakBackend", targets: ["ESpeakBackend"]),
        .library(name: "ALSABackend", targets: ["ALSABackend"]),
        .library(name: "DriveSimulation", targets: ["DriveSimulation"]),
        .library(name: "PulseBackend", targets: ["PulseBackend"]),
        .library(name: "GuidanceService", targets: ["GuidanceService"]),
        .executable(name: "voiceguide", targets: ["voiceguide"]),
    ],
    targets: [
        // Core: SSML, Utterance, protocols, WAV, DSP, routes, phrases, scheduler. No C library.
        .target(name: "VoiceGuidance", swiftSettings: strict),
        .target(name: "VoiceGuidanceTesting", dependencies: ["VoiceGuidance"], swiftSettings: strict),
        // Simulated drives and their checks: a VoiceController on a simulated clock. Core only.
        .target(name: "DriveSimulation", dependencies: ["VoiceGuidance"], swiftSettings: strict),

        // C libraries from Debian, through pkg-config.
        .systemLibrary(
            name: "CEspeakNG", pkgConfig: "espeak-ng",
            providers: [.apt(["libespeak-ng-dev"])]),
        .systemLibrary(
            name: "CALSA", pkgConfig: "alsa",
            providers: [.apt(["libasound2-dev"])]),
        .systemLibrary(
            // No pkgConfig: libpulse.pc's -D_REENTRANT -pthread are flags SwiftPM refuses (a warning).
            name: "CPulse", providers: [.apt(["libpulse-dev"])]),

        // Backends: the only code that calls C.
        .target(name: "ESpeakBackend", dependencies: ["VoiceGuidance", "CEspeakNG"], swiftSettings: strict),
        .target(name: "ALSABackend", dependencies: ["VoiceGuidance", "CALSA"], swiftSettings: strict),
        .target(name: "PulseBackend", dependencies: ["VoiceGuidance", "CPulse"], swiftSettings: strict),

        // The guidance daemon's protocol and Unix socket server (libc only, no C library).
        .target(name: "GuidanceService", dependencies: ["VoiceGuidance"], swiftSettings: strict),

        // The command line and the benchmarks.
        .executableTarget(
            name: "voiceguide",
            dependencies: [
                "VoiceGuidance", "DriveSimulation", "ESpeakBackend", "ALSABackend", "PulseBackend", "GuidanceService",
            ],
            swiftSettings: strict),
        .executableTarget(
            name: "voiceguide-bench",
            dependencies: [
                "VoiceGuidance", "VoiceGuidanceTesting", "DriveSimulation", "ESpeakBackend", "ALSABackend", "CEspeakNG",
                "GuidanceService",
            ],
            exclude: ["intelligibility.py"],
            swiftSettings: strict),

        .testTarget(
            name: "VoiceGuidanceTests", dependencies: ["VoiceGuidance", "VoiceGuidanceTesting", "DriveSimulation"],
            swiftSettings: strict),
        .testTarget(
            name: "ESpeakBackendTests",
            dependencies: ["ESpeakBackend", "VoiceGuidance", "VoiceGuidanceTesting", "DriveSimulation"],
            swiftSettings: strict),
        .testTarget(
            name: "ALSABackendTests",
            dependencies: ["ALSABackend", "ESpeakBackend", "VoiceGuidance", "VoiceGuidanceTesting"],
            swiftSettings: strict),
        .testTarget(
            name: "PulseBackendTests",
            dependencies: ["PulseBackend", "ESpeakBackend", "VoiceGuidance", "VoiceGuidanceTesting"],
            swiftSettings: strict),
        .testTarget(
            name: "GuidanceServiceTests",
            dependencies: ["GuidanceService", "VoiceGuidance", "VoiceGuidanceTesting"],
            swiftSettings: strict),
        .testTarget(
            name: "VoiceguideCLITests",
            dependencies: ["VoiceGuidance", "VoiceGuidanceTesting", "GuidanceService"],
            swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
