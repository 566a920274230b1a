// Tests for ESpeakBackendTests.
