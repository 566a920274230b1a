#!/usr/bin/env bash
# Fuzz/espeak-asan.sh SOURCE: builds libespeak-ng from an eSpeak NG 1.51 source tree (Debian's,
# `apt-get source espeak-ng`, or the 1.51 tag with Debian's patches) with AddressSanitizer, into
# .build/espeak-asan/libespeak-ng.so.1, so that a fuzz target sees eSpeak's own memory faults.
#
# Debian's library is not instrumented: AddressSanitizer misses a read or write past a stack
# array inside eSpeak, and valgrind (Fuzz/valgrind.sh) does too, as it does not know where one
# stack array ends. This build is compiled with `-fsanitize-recover=address`, so that the known
# one-byte over-reads of eSpeak 1.51 (Fuzz/README.md) are reported once each and the run goes
# on to what else an input does (a fault in our own code, built without recovery, still stops
# it). Fuzz or replay a corpus through it:
#
#   LD_LIBRARY_PATH=$PWD/.build/espeak-asan \
#   ASAN_OPTIONS=halt_on_error=0:detect_stack_use_after_return=0:symbolize=0 \
#     Fuzz/run.sh ssml_render 3600
#   (or .build/fuzz/ssml_render/ssml_render -runs=0 .build/fuzz/ssml_render/corpus to replay)
#
# detect_stack_use_after_return=0 keeps eSpeak's frames on the real stack, as in production
# (on ASan's separate frames a scan past `sbuf` runs into an unmapped page). symbolize=0 leaves
# the reports' addresses raw (run the input again to read them): symbolizing our large binary
# in the middle of a run took long enough for libFuzzer to call the input a hang.
#
# Only the library is built; the voices and dictionaries stay Debian's (espeak-ng-data 1.51).
# The clang of the Swift toolchain compiles it, so it uses the runtime swiftc links into the
# fuzz target. Exit status: 0 when built. See Fuzz/README.md.
set -euo pipefail

[ $# -eq 1 ] || { echo "usage: Fuzz/espeak-asan.sh ESPEAK_NG_1.51_SOURCE" >&2; exit 64; }
root=$(cd "$(dirname "$0")/.." && pwd)
source=$(cd "$1" && pwd)
[ -f "$source/Makefile.am" ] && [ -d "$source/src/libespeak-ng" ] || {
  echo "espeak-asan: $source is not an eSpeak NG source tree (no Makefile.am, src/libespeak-ng)" >&2
  exit 66
}
version=$(sed -n 's/^AC_INIT(\[[^]]*\], \[\([^]]*\)\].*/\1/p' "$source/configure.ac")
[ "$version" = 1.51 ] || {
  echo "espeak-asan: $source is eSpeak NG '${version:-unknown}'; the filter in front of eSpeak was" \
    "measured on 1.51, which Debian 12 ships" >&2
  exit 65
}
clang=$(dirname "$(command -v swiftc)")/clang
[ -x "$clang" ] || { echo "espeak-asan: no clang beside swiftc ($clang)" >&2; exit 69; }
[ -f /usr/include/sonic.h ] || apt-get install -y libsonic-dev > /dev/null

out=$root/.build/espeak-asan
mkdir -p "$out/objects"
# What Debian's configure finds (see debian/rules: everything but speechPlayer).
cat > "$out/config.h" <<'EOF'
#define PACKAGE "espeak-ng"
#define PACKAGE_NAME "eSpeak NG"
#define PACKAGE_VERSION "1.51"
#define PACKAGE_STRING "eSpeak NG 1.51"
#define VERSION "1.51"
#define HAVE_ENDIAN_H 1
#define HAVE_MKSTEMP 1
#define HAVE_SLEEP 1
#define HAVE_SONIC_H 1
#define HAVE_STDINT_H 1
#define HAVE_STDLIB_H 1
#define HAVE_STRING_H 1
#define HAVE_UNISTD_H 1
EOF
# The library's sources as Makefile.am lists them, with Klatt, MBROLA and the async API.
sources=$(sed -n '/^src_libespeak_ng_la_SOURCES = /,/^$/p' "$source/Makefile.am" | grep -o 'src/[^ ]*\.c')
for extra in klatt mbrowrap espeak_command event fifo; do sources+=" src/libespeak-ng/$extra.c"; done
objects=()
for file in $sources; do
  object=$out/objects/$(echo "$file" | tr / _).o
  "$clang" -c -O1 -g -fno-omit-frame-pointer -fsanitize=address -fsanitize-recover=address \
    -fPIC -fvisibility=hidden -I"$out" \
    -DPATH_ESPEAK_DATA='"/usr/lib/x86_64-linux-gnu/espeak-ng-data"' -DLIBESPEAK_NG_EXPORT \
    -DINCLUDE_KLATT -DINCLUDE_MBROLA -DUSE_ASYNC -I"$source/src/include" \
    -I"$source/src/include/compat" -I"$source/src/ucd-tools/src/include" \
    -I"$source/src/libespeak-ng" "$source/$file" -o "$object"
  objects+=("$object")
done
# Linked without the sanitizer runtime: the fuzz target carries it and exports its symbols.
"$clang" -shared -Wl,-soname,libespeak-ng.so.1 -o "$out/libespeak-ng.so.1" "${objects[@]}" \
  -lsonic -lm -lpthread
echo "espeak-asan: built $out/libespeak-ng.so.1 (${#objects[@]} files)" >&2
