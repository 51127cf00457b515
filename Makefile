# Cove — everything a fresh Debian machine needs, in two commands: `make demo` and `make test`.
SHELL := /bin/bash
SWIFT ?= swift
SWIFT_FLAGS ?=
# Release binaries (make release, make bench) are single static files: the Swift runtime and Foundation linked in,
# lld with packed relative relocations, no exported symbols. That keeps ~9 MB of pages out of memory during playback
# (a dynamic build maps the Swift runtime and Foundation shared objects whole); GStreamer and GLib stay shared.
# RELEASE_FLAGS= (empty) builds them dynamically instead.
# History: at 795d9d5 the static build was withdrawn after `cove-bench --stress` aborted 3 of 3 times with glibc's
# "malloc assertion failure in sysmalloc". At 466e249 it did not reproduce: the static build ran 500 stress sessions
# and five runs of 60 clean (built in place and in its own build path), and valgrind's memcheck over 51 sessions found
# no invalid read, write or free (only the Swift runtime's known uninitialised-value reports in metadata setup).
RELEASE_FLAGS ?= --static-swift-stdlib -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs -Xlinker --no-export-dynamic
DEBIAN_PACKAGES := libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev libgstreamer-plugins-bad1.0-dev \
	gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-plugins-bad gstreamer1.0-libav \
	gstreamer1.0-tools gstreamer1.0-x ffmpeg pkg-config openssl xvfb x11-utils imagemagick tmux libsqlite3-dev libxcb1-dev libx11-dev \
	librsvg2-bin chromium libcairo2-dev libpango1.0-dev libglib2.0-dev xdotool weston playerctl dbus
SUDO := $(shell [ "$$(id -u)" = "0" ] || echo sudo)

.PHONY: deps build release test demo bench clean api-baseline docs format lint chaos

## deps: install the Debian packages Cove needs (only the missing ones)
deps:
	@missing=""; for p in $(DEBIAN_PACKAGES); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "Installing:$$missing"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	else echo "All system packages present."; fi

build: deps
	$(SWIFT) build $(SWIFT_FLAGS)

release: deps
	$(SWIFT) build -c release $(RELEASE_FLAGS) $(SWIFT_FLAGS)

## test: install, build and run every test
# scripts/run-tests.sh runs the unit/CLI/service tests in one process, each real-engine suite in its own (a GStreamer
# crash stays in its suite; see the script), then the time-budgeted parser fuzzing (WebVTT and VMAP, 60 s each under
# CI=true) alone: in parallel with the real-engine tests it would only take CPU from their real-time playback.
FUZZ_TESTS = fuzzForTheTimeBudget

test: deps
	$(SWIFT) build --build-tests $(SWIFT_FLAGS)
	SWIFT='$(SWIFT)' SWIFT_FLAGS='$(SWIFT_FLAGS)' FUZZ_TESTS='$(FUZZ_TESTS)' bash scripts/run-tests.sh
	$(MAKE) --no-print-directory lint
	$(MAKE) --no-print-directory docs

## chaos: issue 33's randomised operation test on the real engine, alone: controllers driven by random commands
## over an origin serving random faults, both from one seed. `make chaos CHAOS_SECONDS=N [CHAOS_SEED=S]` (60 s and
## a new seed by default; the seed is printed first and in the last line, `chaos: C commands, F faults, S sessions,
## V violations, seed S`). Every command is appended to cove-chaos-<seed>.log in the temporary folder as it is issued.
CHAOS_SECONDS ?= 60
CHAOS_SEED ?=
chaos: deps
	$(SWIFT) build --build-tests $(SWIFT_FLAGS)
	@mkdir -p .build; set -o pipefail; \
	CHAOS_SECONDS='$(CHAOS_SECONDS)' CHAOS_SEED='$(CHAOS_SEED)' SWIFT_BACKTRACE=$${SWIFT_BACKTRACE:-preset=full,threads=crashed,images=mentioned,registers=none} \
		$$($(SWIFT) build --show-bin-path $(SWIFT_FLAGS))/CovePackageTests.xctest --testing-library swift-testing \
		--filter "RealEngineTests/ChaosTests/" 2>&1 | tee .build/chaos.log; status=$$?; \
	grep -a '^chaos: [0-9]* commands' .build/chaos.log | tail -1; exit $$status

## docs: build the DocC documentation of every library product into .build/docs (warnings are errors)
DOC_TARGETS := CoveCore CoveGStreamer CoveGStreamerEngine CoveHLS CoveStreaming CoveText CoveSSAI CoveXML CoveDASH CoveNetworking \
	CovePlaybackService CoveTestSupport CoveTestServers CoveServer CovePlayerUI CovePlayerControls CovePlayerView CoveMPRIS CoveOffline CoveAnalytics \
	CoveMonitoring CoveReport
docs: deps
	mkdir -p .build/docs
	$(SWIFT) package --allow-writing-to-directory .build/docs generate-documentation \
		$(foreach t,$(DOC_TARGETS),--target $(t)) --output-path .build/docs --warnings-as-errors --transform-for-static-hosting
	@echo "Documentation in .build/docs (one archive per module)."

## format: format the Swift sources in place with the toolchain's swift-format and .swift-format;
## lint: report what format would change, without changing anything (strict: make test fails on any finding)
format:
	$(SWIFT) format format --in-place --parallel --configuration .swift-format --recursive Sources Tests Examples Package.swift
lint:
	$(SWIFT) format lint --strict --parallel --configuration .swift-format --recursive Sources Tests Examples Package.swift

## api-baseline: record the public API of every library product in api/ (after an intended API change;
## make test fails on any difference from it)
api-baseline: deps
	$(SWIFT) build --build-tests $(SWIFT_FLAGS)
	COVE_API_BASELINE_WRITE=1 $$($(SWIFT) build --show-bin-path $(SWIFT_FLAGS))/CovePackageTests.xctest --testing-library swift-testing --filter thePublicAPIMatchesTheBaseline

## demo: serve the sample catalog on loopback, fetch its playlist with the Playback Service and play it (bumper first) with live progress and events
demo: deps
	$(SWIFT) build --product cove $(SWIFT_FLAGS)
	$$($(SWIFT) build --show-bin-path $(SWIFT_FLAGS))/cove demo

## bench: engine-relative benchmarks (writes bench/RESULTS.md)
bench: release
	bash bench/run.sh

clean:
	rm -rf .build
