// Tests for VoiceguideCLITests.
