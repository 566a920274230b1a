# VoiceGuidance: `make test` and `make run` each work alone on a bare Debian 12 machine with Swift.
SHELL := /bin/bash
SWIFT ?= swift
APT_PACKAGES := libespeak-ng-dev espeak-ng-data espeak-ng libasound2-dev alsa-utils pkg-config \
  libpulse-dev pulseaudio pulseaudio-utils gpsd gpsd-clients python3 valgrind
BUILD_DIR := build
# Fuzz targets (Fuzz/Targets/NAME.swift) and how long `make fuzz` runs each, in seconds.
FUZZ_TARGETS := $(sort $(basename $(notdir $(wildcard Fuzz/Targets/*.swift))))
FUZZ_SECONDS ?= 300
# How long `make test` lets the test suites run (they take about 10 minutes on 2 cores).
TEST_TIMEOUT ?= 2400
# The targets that call libespeak-ng, which AddressSanitizer cannot see into: `make test` also
# replays their seeds and kept inputs under valgrind (Fuzz/valgrind.sh).
FUZZ_VALGRIND_TARGETS := $(sort $(basename $(notdir $(shell grep -l '^// fuzz-needs:.*espeak' Fuzz/Targets/*.swift))))
# `make test` fuzzes every target briefly: one minute in all, shared out (at least 5 s each).
FUZZ_TEST_SECONDS := $(shell n=$(words $(FUZZ_TARGETS)); s=$$((60 / (n > 0 ? n : 1))); echo $$((s < 5 ? 5 : s)))

.PHONY: setup build test test-tsan run bench format lint clean fuzz fuzz-valgrind

## setup: install the Debian packages the build and tests use, only those missing.
setup:
	@missing=""; for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "setup: installing$$missing"; \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q --no-install-recommends $$missing; \
	else echo "setup: all packages present"; fi

build: setup
	$(SWIFT) build

lint:
	$(SWIFT) format lint --strict --recursive Sources Tests

format:
	$(SWIFT) format --in-place --recursive Sources Tests

## test: lint, build, and run every test suite; then replay every kept fuzz crash and fuzz each
## target briefly, and replay the eSpeak targets' seeds and kept inputs under valgrind
## (Fuzz/README.md).
test: setup lint
	$(SWIFT) build --build-tests
	@# Line-buffered, so that a log cut short shows the last test that ran; a hang ends the run
	@# after TEST_TIMEOUT seconds, with the tests that started and never passed named.
	@timeout -k 30 $(TEST_TIMEOUT) stdbuf -oL -eL $(SWIFT) test --skip-build --no-parallel \
	  2>&1 | tee .build/test.log; rc=$${PIPESTATUS[0]}; \
	if [ $$rc = 124 ] || [ $$rc = 137 ]; then \
	  echo "make test: the suites ran past $(TEST_TIMEOUT) s and were stopped; started, never ended:" >&2; \
	  Tools/unfinished-tests .build/test.log >&2; \
	fi; exit $$rc
	$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=$(FUZZ_TEST_SECONDS)
	$(MAKE) --no-print-directory fuzz-valgrind FUZZ_VALGRIND_INPUTS=--kept

## fuzz: build each fuzz target with libFuzzer and AddressSanitizer, replay its kept crashes, and
## fuzz it for FUZZ_SECONDS (default 300) each. Fails when any input crashes.
fuzz: setup
	@status=0; for target in $(FUZZ_TARGETS); do \
	  Fuzz/run.sh $$target $(FUZZ_SECONDS) || status=1; \
	done; exit $$status

## fuzz-valgrind: replay what the fuzzer kept of each target that calls libespeak-ng (its corpus,
## seeds and kept inputs; FUZZ_VALGRIND_INPUTS=--kept: only the seeds and kept inputs) under
## valgrind, which sees the library's memory errors that AddressSanitizer cannot.
fuzz-valgrind: setup
	@status=0; for target in $(FUZZ_VALGRIND_TARGETS); do \
	  Fuzz/valgrind.sh $$target $(FUZZ_VALGRIND_INPUTS) || status=1; \
	done; exit $$status

## test-tsan: the suites that use threads (speech, ALSA, the two halves of a render, the CLI's
## batch pipeline and render workers) under Thread Sanitizer.
test-tsan: setup
	$(SWIFT) test --sanitize=thread --no-parallel \
	  --filter 'Synthesizer|ALSA|ESpeakSynthesis|RenderCommand|RouteCommand'

run: setup
	$(SWIFT) build --product voiceguide
	@mkdir -p $(BUILD_DIR)
	bash Examples/run.sh $$($(SWIFT) build --show-bin-path)/voiceguide $(BUILD_DIR)

bench: setup
	$(SWIFT) build -c release --product voiceguide-bench
	$(SWIFT) build -c release --product voiceguide
	$$($(SWIFT) build -c release --show-bin-path)/voiceguide-bench
	@# 9. Intelligibility (word error rate by pocketsphinx), when it is installed and the
	@# sections asked for ($$VOICEGUIDE_BENCH, default all) include 9.
	@case ",$${VOICEGUIDE_BENCH:-9}," in *,9,*) \
	  if python3 -c "import pocketsphinx" 2>/dev/null; then \
	    python3 Sources/voiceguide-bench/intelligibility.py \
	      --voiceguide $$($(SWIFT) build -c release --show-bin-path)/voiceguide; \
	  else echo "9. Intelligibility: skipped (pip install pocketsphinx)"; fi;; esac

clean:
	rm -rf .build $(BUILD_DIR)
