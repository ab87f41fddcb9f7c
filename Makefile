# Hearth — `make run` sets everything up and starts a chat; `make test` sets up and runs every test.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c

HEARTH_CACHE ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/hearth
HEARTH_LLAMA_PREFIX ?= $(HEARTH_CACHE)/llama.cpp-0.3.36
HEARTH_WHISPER_PREFIX ?= $(HEARTH_CACHE)/whisper.cpp-1.8.5
HEARTH_SHERPA_PREFIX ?= $(HEARTH_CACHE)/sherpa-onnx-2.0.1
HEARTH_MODELS_CACHE ?= $(HEARTH_CACHE)/models
export HEARTH_CACHE HEARTH_LLAMA_PREFIX HEARTH_WHISPER_PREFIX HEARTH_SHERPA_PREFIX HEARTH_MODELS_CACHE
export PKG_CONFIG_PATH := $(HEARTH_LLAMA_PREFIX)/lib/pkgconfig:$(HEARTH_WHISPER_PREFIX)/lib/pkgconfig:$(HEARTH_SHERPA_PREFIX)/lib/pkgconfig$(if $(PKG_CONFIG_PATH),:$(PKG_CONFIG_PATH))
# Tests find the models here.
export HEARTH_TEST_MODELS := $(HEARTH_MODELS_CACHE)

SWIFT_FORMAT_PATHS := Package.swift Sources Tests Fuzz

.PHONY: all setup setup-web build run check test fuzz lint format bench screenshots compat clean

all: build

## setup: llama.cpp and whisper.cpp (libraries and tools, built for this CPU's instruction sets), sherpa-onnx and
## the Piper voice, and the models, cached outside the clone; Debian's poppler-utils, nginx and espeak-ng. Both builds are then proven on this
## CPU with a real generation and a real transcription (rebuilt with fewer instruction sets if they crash).
setup:
	@scripts/setup-system.sh
	@scripts/setup-llama.sh
	@scripts/setup-whisper.sh
	@scripts/setup-voice.sh
	@scripts/setup-models.sh
	@scripts/prove-native.sh

## setup-web: chromium, its driver and the pinned Python packages the web tests use; the CalDAV/CardDAV servers
## (Radicale, Xandikos) and client the sync tests use
setup-web:
	@scripts/setup-browser.sh
	@scripts/setup-dav.sh

## build: set-up, then a release build of hearth with the default model installed
build: setup
	@scripts/logged.sh "hearth: building (release)" swift-build-release swift build -c release --product hearth
	@scripts/install-default-model.sh

## run: build, then chat with the default model
run: build
	.build/release/hearth chat

## check: the fast loop, needing no set-up: the modules with no native library (Core, Store, Interchange, Actions,
## Memory, Forms) built in their own folder (.build-check, from the same Package.swift under HEARTH_PURE=1) and
## every test of theirs run; `make test` runs it first, so a pure failure shows in a minute, not after the models
check:
	@HEARTH_PURE=1 scripts/logged.sh "hearth: building the pure modules" swift-build-check swift build --scratch-path .build-check --build-tests
	HEARTH_PURE=1 swift test --scratch-path .build-check --skip-build

## test: set-up, format check, then the whole test suite (real models, real llama.cpp), then the web tests
## (the official OpenAI client and headless Chromium against a running `hearth serve`), with one summary at the
## end even when a test process dies. Tests run one at a time: they are CPU-bound on the same cores, and timing
## behaviour (time limits) must not depend on load.
test: lint check setup setup-web
	@scripts/logged.sh "hearth: building the tests" swift-build-tests swift build --build-tests
	scripts/run-tests.sh

## fuzz: set-up, then each parser that takes outside bytes fuzzed with libFuzzer for FUZZ_SECONDS (default 600)
## from its seed corpus in Fuzz/Corpus; executions and coverage per target, crashes in .build/fuzz/crashes
FUZZ_SECONDS ?= 600
fuzz: setup
	scripts/fuzz.sh $(FUZZ_SECONDS)

## screenshots: the web app's main screens, taken by the browser test, into docs/screenshots
screenshots: setup setup-web
	swift build --product hearth
	scripts/web-tests.sh --screenshots docs/screenshots

## compat: llama.cpp's own server test suite, unmodified, against llama-server and against `hearth serve` on
## the same local models; prints the pass counts per test file (scripts/compat.sh; failing tests and full
## logs in $(HEARTH_CACHE)/compat-results). A report, not a gate: failing tests do not fail the target.
compat: setup
	@scripts/logged.sh "hearth: building (debug)" swift-build-debug swift build --product hearth
	scripts/compat.sh

## lint: the committed format, and no new `try?` in the engine (scripts/check-try.sh)
lint:
	swift format lint --strict --recursive $(SWIFT_FORMAT_PATHS)
	scripts/check-try.sh
	scripts/test-lanes.py --check

format:
	swift format --in-place --recursive $(SWIFT_FORMAT_PATHS)

## bench: compare Hearth with llama.cpp's own tools on the default models (and its memory with sqlite-vec)
bench: build
	.build/release/hearth bench
	.build/release/hearth bench chat
	.build/release/hearth bench server
	.build/release/hearth bench speech
	HEARTH_SQLITE_VEC="$$(scripts/setup-sqlite-vec.sh)" .build/release/hearth bench memory

clean:
	rm -rf .build
