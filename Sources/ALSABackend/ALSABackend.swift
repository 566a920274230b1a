// The ALSA sink and device listing: the only module that calls libasound.
