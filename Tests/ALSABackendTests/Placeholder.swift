// Tests for ALSABackendTests.
