# VoiceGuidance: `make test` and `make run` each work alone on a bare Debian 12 machine with Swift.
SWIFT ?= swift
APT_PACKAGES := libespeak-ng-dev espeak-ng-data espeak-ng libasound2-dev alsa-utils pkg-config python3
BUILD_DIR := build

.PHONY: setup build test test-tsan run bench format lint clean

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

## test: lint, build, and run every test suite.
test: setup lint
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --no-parallel

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

clean:
	rm -rf .build $(BUILD_DIR)
