// ALSA's umbrella header; Swift cannot import its alloca macros, so the backend uses _malloc/_free.
#ifndef CALSA_SHIM_H
#define CALSA_SHIM_H
#include <alsa/asoundlib.h>
#endif
