// libpulse's asynchronous API (PulseAudio, and PipeWire's pipewire-pulse), for PulseBackend.
#ifndef CPULSE_SHIM_H
#define CPULSE_SHIM_H
#include <pulse/pulseaudio.h>
#endif
