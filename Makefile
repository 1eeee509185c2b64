# SPDX-License-Identifier: GPL-2.0-only
#
# idlelab build.  `make` builds the library and the CLI into $(O)/, `make check` runs every
# test, `make demo` installs missing Debian build dependencies and runs the main job.
#
#   O=DIR          build directory (default build, build-asan for SANITIZE=1)
#   SANITIZE=1     build with ASan + UBSan
#   WERROR=1       turn warnings into errors (CI)
#   V=1            show the commands
#   VM_REQUIRED=1  make check-vm fail, not skip, when qemu or the guest kernel is missing (CI)
#   CLI_JOBS=N     CLI test files run at once by make check (default: one per core)
#   CROSS_COMPILE=aarch64-linux-gnu-   cross-compile (CC and AR get the prefix unless given)
#
# `make install` / `make uninstall` (see "install" below): PREFIX (default /usr/local), DESTDIR,
# bindir, libdir, includedir, mandir, datadir, as tools/perf and rtla take them.

SANITIZE ?= 0
WERROR ?= 0
ifeq ($(SANITIZE),1)
O ?= build-asan
else
O ?= build
endif

# Install directories (see "install" below).
PREFIX ?= /usr/local
prefix ?= $(PREFIX)
exec_prefix ?= $(prefix)
bindir ?= $(exec_prefix)/bin
libdir ?= $(exec_prefix)/lib
includedir ?= $(prefix)/include
datarootdir ?= $(prefix)/share
datadir ?= $(datarootdir)
mandir ?= $(datarootdir)/man
pkgconfigdir ?= $(libdir)/pkgconfig
completiondir ?= $(datadir)/bash-completion/completions

# CC and AR are make's built-in defaults unless given: kernel-tool style, they follow
# CROSS_COMPILE then.
ifeq ($(origin CC),default)
CC := $(if $(CROSS_COMPILE),$(CROSS_COMPILE)gcc,cc)
endif
ifeq ($(origin AR),default)
AR := $(CROSS_COMPILE)ar
endif
PKG_CONFIG ?= pkg-config
CFLAGS ?= -O2 -g
# Hardening, as Debian's dpkg-buildflags gives it (debian/rules passes those instead).
# _FORTIFY_SOURCE needs an optimizing build and only confuses ASan, so it is left out there.
HARDEN_CFLAGS ?= -fstack-protector-strong
ifeq ($(SANITIZE)$(filter -O0,$(CFLAGS)),0)
CPPFLAGS ?= -D_FORTIFY_SOURCE=2
endif
LDFLAGS ?= -Wl,-z,relro -Wl,-z,now
# The kernel is built with -fno-strict-overflow: signed overflow wraps, and the governor
# ports depend on that where upstream does.
BASE_CFLAGS := -pthread -std=gnu11 -Wall -Wextra -Wno-unused-parameter -fno-strict-overflow -fwrapv \
	-Iinclude -Ilib -MMD -MP $(HARDEN_CFLAGS) $(CPPFLAGS)
ifeq ($(WERROR),1)
BASE_CFLAGS += -Werror
endif
ifeq ($(SANITIZE),1)
SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
BASE_CFLAGS += $(SAN_FLAGS)
LDFLAGS += $(SAN_FLAGS)
endif

ifeq ($(V),1)
Q :=
else
Q := @
endif

# ---- feature detection (kernel-tool style) -------------------------------------------------
# $(call feature,PKG,MIN): 1 if pkg-config has PKG at version MIN or later. The minimum is the
# oldest version with every function the code calls (json_error_code: jansson 2.11;
# tracefs_instance_set_buffer_size: libtracefs 1.6).
feature = $(shell $(PKG_CONFIG) --atleast-version=$(2) $(1) 2>/dev/null && echo 1 || echo 0)
MIN_JANSSON := 2.11
MIN_CMOCKA := 1.1
MIN_LIBTRACEFS := 1.6
MIN_LIBTRACECMD := 1.0
MIN_ZLIB := 1.2
MIN_RMATH := 3.0
MIN_LZMA := 5.0
MIN_ZSTD := 1.4
FEATURE_JANSSON := $(call feature,jansson,$(MIN_JANSSON))
FEATURE_CMOCKA := $(call feature,cmocka,$(MIN_CMOCKA))
FEATURE_LIBTRACEFS := $(call feature,libtracefs,$(MIN_LIBTRACEFS))
FEATURE_LIBTRACECMD := $(call feature,libtracecmd,$(MIN_LIBTRACECMD))
FEATURE_ZLIB := $(call feature,zlib,$(MIN_ZLIB))
FEATURE_RMATH := $(call feature,libRmath,$(MIN_RMATH))
FEATURE_LZMA := $(call feature,liblzma,$(MIN_LZMA))
FEATURE_ZSTD := $(call feature,libzstd,$(MIN_ZSTD))

ifeq ($(FEATURE_JANSSON),1)
BASE_CFLAGS += -DHAVE_JANSSON $(shell $(PKG_CONFIG) --cflags jansson)
LIBS += $(shell $(PKG_CONFIG) --libs jansson)
endif
# libtracecmd (+ libtraceevent): the binary trace.dat reader of `stats`/`replay` (lib/trace/dat.c).
ifeq ($(FEATURE_LIBTRACECMD),1)
BASE_CFLAGS += -DHAVE_LIBTRACECMD $(shell $(PKG_CONFIG) --cflags libtracecmd)
LIBS += $(shell $(PKG_CONFIG) --libs libtracecmd)
endif
# libtracefs: `idlelab measure --trace` records through a private tracing instance (lib/live/trace.c).
ifeq ($(FEATURE_LIBTRACEFS),1)
BASE_CFLAGS += -DHAVE_LIBTRACEFS $(shell $(PKG_CONFIG) --cflags libtracefs)
LIBS += $(shell $(PKG_CONFIG) --libs libtracefs)
endif
# zlib: `idlelab states --export` reads CONFIG_HZ from /proc/config.gz (lib/live/export.c);
# zlib, liblzma, libzstd: `stats`/`replay` read .gz, .xz and .zst traces (lib/trace/codec.c).
ifeq ($(FEATURE_ZLIB),1)
BASE_CFLAGS += -DHAVE_ZLIB $(shell $(PKG_CONFIG) --cflags zlib)
LIBS += $(shell $(PKG_CONFIG) --libs zlib)
endif
# libRmath (Debian's r-mathlib, R's standalone mathematics library): Student's t for the
# confidence intervals and tests of lib/stat/. Required.
ifeq ($(FEATURE_RMATH),1)
BASE_CFLAGS += $(shell $(PKG_CONFIG) --cflags libRmath)
LIBS += $(shell $(PKG_CONFIG) --libs libRmath)
else ifeq ($(filter clean deps demo check,$(MAKECMDGOALS)),)
$(error libRmath not found: please install r-mathlib (scripts/install-deps.sh))
endif
ifeq ($(FEATURE_LZMA),1)
BASE_CFLAGS += -DHAVE_LZMA $(shell $(PKG_CONFIG) --cflags liblzma)
LIBS += $(shell $(PKG_CONFIG) --libs liblzma)
endif
ifeq ($(FEATURE_ZSTD),1)
BASE_CFLAGS += -DHAVE_ZSTD $(shell $(PKG_CONFIG) --cflags libzstd)
LIBS += $(shell $(PKG_CONFIG) --libs libzstd)
endif
LIBS += -lm -pthread

onoff = $(if $(filter 1,$(1)),[ on  ],[ OFF ])
# $(call hint,FEATURE,PKG,MIN,DEBIAN-PACKAGE,WHAT): how to turn an OFF feature on
hint = $(if $(filter 1,$(1)),,@echo "Makefile: $(2) >= $(3) not found, $(5) disabled;" \
	"please install $(4)")
define print_features
	@echo ""
	@echo "Auto-detecting system features:"
	@echo "...                        jansson: $(call onoff,$(FEATURE_JANSSON))"
	@echo "...                         cmocka: $(call onoff,$(FEATURE_CMOCKA))"
	@echo "...                     libtracefs: $(call onoff,$(FEATURE_LIBTRACEFS))"
	@echo "...                    libtracecmd: $(call onoff,$(FEATURE_LIBTRACECMD))"
	@echo "...                           zlib: $(call onoff,$(FEATURE_ZLIB))"
	@echo "...                       libRmath: $(call onoff,$(FEATURE_RMATH))"
	@echo "...                        liblzma: $(call onoff,$(FEATURE_LZMA))"
	@echo "...                        libzstd: $(call onoff,$(FEATURE_ZSTD))"
	@echo "...                          scdoc: $(call onoff,$(FEATURE_SCDOC))"
	@echo ""
	$(call hint,$(FEATURE_JANSSON),jansson,$(MIN_JANSSON),libjansson-dev,JSON output and rt-app files)
	$(call hint,$(FEATURE_CMOCKA),cmocka,$(MIN_CMOCKA),libcmocka-dev,the unit tests)
	$(call hint,$(FEATURE_LIBTRACEFS),libtracefs,$(MIN_LIBTRACEFS),libtracefs-dev,measure --trace)
	$(call hint,$(FEATURE_LIBTRACECMD),libtracecmd,$(MIN_LIBTRACECMD),libtracecmd-dev,the trace.dat reader)
	$(call hint,$(FEATURE_ZLIB),zlib,$(MIN_ZLIB),zlib1g-dev,reading /proc/config.gz in states --export and .gz traces)
	$(call hint,$(FEATURE_LZMA),liblzma,$(MIN_LZMA),liblzma-dev,.xz traces)
	$(call hint,$(FEATURE_ZSTD),libzstd,$(MIN_ZSTD),libzstd-dev,.zst traces)
endef

# ---- sources ---------------------------------------------------------------------------------
LIB_SRCS := $(sort $(shell find lib -name '*.c'))
CLI_SRCS := $(sort $(wildcard src/*.c))
UNIT_SRCS := $(sort $(wildcard tests/unit/test_*.c))
UNIT_HELPER_SRCS := $(filter-out $(UNIT_SRCS),$(wildcard tests/unit/*.c))

LIB_OBJS := $(LIB_SRCS:%.c=$(O)/%.o)
CLI_OBJS := $(CLI_SRCS:%.c=$(O)/%.o)
UNIT_BINS := $(UNIT_SRCS:%.c=$(O)/%)
UNIT_HELPER_OBJS := $(UNIT_HELPER_SRCS:%.c=$(O)/%.o)

LIBIDLELAB := $(O)/libidlelab.a
# One version, the CLI's (--version): the library's file name, idlelab.pc and debian/changelog.
VERSION := $(shell sed -n 's/^\#define IDLELAB_VERSION "\(.*\)"/\1/p' src/cli.h)
# The shared library's soname number: bumped on every incompatible change of include/idlelab/.
SO_MAJOR := 0
LIBIDLELAB_SONAME := libidlelab.so.$(SO_MAJOR)
LIBIDLELAB_SO := $(O)/libidlelab.so.$(VERSION)
IDLELAB := $(O)/idlelab

.PHONY: all features check check-unit check-cli check-vm demo clean deps asan bench
all: features $(IDLELAB) $(LIBIDLELAB_SO)

features:
	$(print_features)

# Every object depends on the flags it is compiled with (tools/perf's PERF-CFLAGS): a change of
# CFLAGS, CPPFLAGS, SANITIZE, a feature or the library's own flags rebuilds, nothing else does.
BUILD_FLAGS := $(O)/build-flags
BUILD_FLAGS_TEXT = $(subst ','\'',$(CC) $(BASE_CFLAGS) $(CFLAGS) lib: $(LIB_CFLAGS))
$(BUILD_FLAGS): FORCE
	@mkdir -p $(dir $@)
	@printf '%s\n' '$(BUILD_FLAGS_TEXT)' | cmp -s - $@ 2>/dev/null || \
		printf '%s\n' '$(BUILD_FLAGS_TEXT)' > $@

# ---- built-in platforms, CLI parsers in unit tests, fuzzing (lib/platform/, src/, fuzz/) ----
# platforms/*.plat are embedded into the library as strings (lib/platform/embed.sh); the list
# that registers them is lib/platform/platforms.h.
PLATFORM_FILES := $(sort $(wildcard platforms/*.plat))
PLATFORM_GEN := $(O)/gen/platforms.c
LIB_OBJS += $(O)/gen/platforms.o

$(PLATFORM_GEN): $(PLATFORM_FILES) lib/platform/embed.sh
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  GEN     $@")
	$(Q)lib/platform/embed.sh $(PLATFORM_FILES) > $@.tmp && mv $@.tmp $@

$(O)/gen/platforms.o: $(PLATFORM_GEN) $(BUILD_FLAGS)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(BASE_CFLAGS) $(CFLAGS) -c $< -o $@

# test_cli links the CLI objects (all but main()) to test the subcommands' argument parsers.
CLI_LIB_OBJS := $(filter-out $(O)/src/idlelab.o,$(CLI_OBJS))
# test_trace_cli: the argument parsers of stats and replay (src/trace_cli.c), likewise.
$(O)/tests/unit/test_trace_cli: $(O)/tests/unit/test_trace_cli.o $(CLI_LIB_OBJS) $(UNIT_HELPER_OBJS) $(LIBIDLELAB)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(LDFLAGS) -o $@ $< $(CLI_LIB_OBJS) $(UNIT_HELPER_OBJS) $(LIBIDLELAB) $(LIBS) -lcmocka

$(O)/tests/unit/test_cli: $(O)/tests/unit/test_cli.o $(CLI_LIB_OBJS) $(UNIT_HELPER_OBJS) $(LIBIDLELAB)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(LDFLAGS) -o $@ $< $(CLI_LIB_OBJS) $(UNIT_HELPER_OBJS) $(LIBIDLELAB) $(LIBS) -lcmocka

# `make fuzz` builds libFuzzer targets of the text parsers into $(O)/fuzz/; `make fuzz-run
# FUZZ_SECONDS=N` runs each for N seconds on a seed corpus (fuzz/run.sh).
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 10
FUZZ_CFLAGS := -std=gnu11 -g -O1 -fwrapv -Ilib \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
FUZZ_COMMON := lib/platform/lex.c lib/error.c
FUZZ_BINS := $(O)/fuzz/fuzz_platform $(O)/fuzz/fuzz_step
$(O)/fuzz/fuzz_platform: fuzz/fuzz_platform.c lib/platform/platform.c lib/platform/topology.c \
	lib/platform/uncertain.c lib/core/cpuidle.c $(FUZZ_COMMON)
$(O)/fuzz/fuzz_step: fuzz/fuzz_step.c lib/step/input.c $(FUZZ_COMMON)
# The trace readers: one target per text reader, and one that detects the format.
# lib/trace/table.c only formats what a reader read (output/), so the targets leave it out.
FUZZ_TRACE_SRCS := fuzz/fuzz_trace.c $(filter-out lib/trace/table.c,$(sort $(wildcard lib/trace/*.c))) \
	lib/stats/stats.c lib/core/cpuidle.c lib/util/grow.c fuzz/fuzz_stream.h
FUZZ_TRACE_BINS := $(O)/fuzz/fuzz_trace_ftrace $(O)/fuzz/fuzz_trace_tracecmd \
	$(O)/fuzz/fuzz_trace_perf $(O)/fuzz/fuzz_trace_idlestat $(O)/fuzz/fuzz_trace_detect \
	$(O)/fuzz/fuzz_trace_systrace
$(O)/fuzz/fuzz_trace_ftrace: READER := '"ftrace"'
$(O)/fuzz/fuzz_trace_tracecmd: READER := '"trace-cmd"'
$(O)/fuzz/fuzz_trace_perf: READER := '"perf"'
$(O)/fuzz/fuzz_trace_idlestat: READER := '"idlestat"'
$(O)/fuzz/fuzz_trace_detect: READER := NULL
$(O)/fuzz/fuzz_trace_systrace: READER := '"systrace"'
$(FUZZ_TRACE_BINS): $(FUZZ_TRACE_SRCS)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  FUZZCC  $@")
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -DREADER=$(READER) $(filter %.c,$^) -o $@
FUZZ_BINS += $(FUZZ_TRACE_BINS)
# The rt-app reader (lib/rtapp/) reads JSON through jansson.
ifeq ($(FEATURE_JANSSON),1)
FUZZ_BINS += $(O)/fuzz/fuzz_rtapp
endif
# The sysfs dump reader of `states --dump` (lib/live/dump.c), read back through sysfs.c.
FUZZ_BINS += $(O)/fuzz/fuzz_dump
$(O)/fuzz/fuzz_dump: fuzz/fuzz_dump.c lib/live/dump.c lib/live/sysfs.c lib/error.c
# The run fields of verdict case files (lib/verdict/casefile.c), which merge reads.
FUZZ_BINS += $(O)/fuzz/fuzz_verdict_case
$(O)/fuzz/fuzz_verdict_case: fuzz/fuzz_verdict_case.c lib/verdict/casefile.c lib/metrics/metrics.c \
	lib/error.c
$(O)/fuzz/fuzz_rtapp: fuzz/fuzz_rtapp.c $(sort $(wildcard lib/rtapp/*.c)) lib/error.c
$(O)/fuzz/fuzz_rtapp: FUZZ_LIBS = -DHAVE_JANSSON $(shell $(PKG_CONFIG) --cflags --libs jansson)

# The scenario specification parser (-s) and the report's inputs reach into most of the
# library (the scenario registry, the report model), so they link the whole library, compiled
# once for fuzzing into $(FUZZ_LIB) (with the sanitizers, without libFuzzer's main()).
FUZZ_OBJ_CFLAGS := $(filter-out -fsanitize=%,$(FUZZ_CFLAGS)) \
	-fsanitize=fuzzer-no-link,address,undefined $(filter -D% -I%,$(BASE_CFLAGS)) \
	-DIL_SRCDIR='"$(CURDIR)"'
FUZZ_LIB := $(O)/fuzz/libidlelab-fuzz.a
FUZZ_LIB_OBJS := $(patsubst %.c,$(O)/fuzz/obj/%.o,$(LIB_SRCS) $(PLATFORM_GEN))
FUZZ_CLI_OBJS := $(patsubst %.c,$(O)/fuzz/obj/%.o,$(filter-out src/idlelab.c,$(CLI_SRCS)))
$(O)/fuzz/obj/%.o: %.c $(BUILD_FLAGS)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  FUZZCC  $<")
	$(Q)$(FUZZ_CC) $(FUZZ_OBJ_CFLAGS) -Isrc -c $< -o $@
$(FUZZ_LIB): $(FUZZ_LIB_OBJS)
	@$(if $(Q),echo "  AR      $@")
	$(Q)rm -f $@ && $(AR) rcs $@ $^
FUZZ_LIB_LINK := $(FUZZ_LIB) $(LIBS)
FUZZ_BINS += $(O)/fuzz/fuzz_scenario
$(O)/fuzz/fuzz_scenario: fuzz/fuzz_scenario.c $(FUZZ_LIB)
ifeq ($(FEATURE_JANSSON),1)
FUZZ_BINS += $(O)/fuzz/fuzz_report
endif
$(O)/fuzz/fuzz_report: fuzz/fuzz_report.c $(FUZZ_LIB)
# The scoreboard's table of the seeds' numbers (tests/fidelity/seeds.c), checked against the
# library's platforms, presets and scenario specs.
FUZZ_BINS += $(O)/fuzz/fuzz_seeds
$(O)/fuzz/fuzz_seeds: fuzz/fuzz_seeds.c tests/fidelity/seeds.c fuzz/fuzz_stream.h $(FUZZ_LIB)
# The patch reader of `idlelab review` and the top Makefile's version.
FUZZ_BINS += $(O)/fuzz/fuzz_review_patch
$(O)/fuzz/fuzz_review_patch: fuzz/fuzz_review_patch.c $(FUZZ_LIB)
# merge's case files, read by the command itself (src/cmd_merge.c with the CLI around it).
FUZZ_BINS += $(O)/fuzz/fuzz_merge
$(O)/fuzz/fuzz_merge: fuzz/fuzz_merge.c $(FUZZ_CLI_OBJS) $(FUZZ_LIB)
FUZZ_WHOLE_LIB_BINS := $(O)/fuzz/fuzz_scenario $(O)/fuzz/fuzz_report $(O)/fuzz/fuzz_seeds \
	$(O)/fuzz/fuzz_review_patch $(O)/fuzz/fuzz_merge
$(FUZZ_WHOLE_LIB_BINS):
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  FUZZCC  $@")
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -Isrc $(filter -D% -I%,$(BASE_CFLAGS)) $(filter %.c %.o,$^) \
		-o $@ $(FUZZ_LIB_LINK)

$(filter-out $(FUZZ_TRACE_BINS) $(FUZZ_WHOLE_LIB_BINS),$(FUZZ_BINS)):
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  FUZZCC  $@")
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) $(filter %.c,$^) -o $@ $(FUZZ_LIBS)

.PHONY: fuzz fuzz-run
fuzz: $(FUZZ_BINS)

fuzz-run: fuzz
	$(Q)fuzz/run.sh $(O)/fuzz $(FUZZ_SECONDS)

$(O)/%.o: %.c $(BUILD_FLAGS)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(BASE_CFLAGS) $(CFLAGS) -c $< -o $@

$(LIBIDLELAB): $(LIB_OBJS)
	@$(if $(Q),echo "  AR      $@")
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(IDLELAB): $(CLI_OBJS) $(LIBIDLELAB)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(LDFLAGS) -o $@ $(CLI_OBJS) $(LIBIDLELAB) $(LIBS)

$(O)/tests/unit/%: $(O)/tests/unit/%.o $(UNIT_HELPER_OBJS) $(LIBIDLELAB)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(LDFLAGS) -o $@ $< $(UNIT_HELPER_OBJS) $(LIBIDLELAB) $(LIBS) -lcmocka

# idlelab's data, kgov's kernel-API shim (kshim/, lib/kgov/build.c) and the shipped real traces
# (traces/, `idlelab review`), is found by lib/util/datadir.c: a binary in this build
# directory finds it in this source tree, an installed one under $(datadir)/idlelab (next to
# the binary, else the datadir compiled in); $IDLELAB_KSHIM_DIR overrides the shim's.
# $(O)/install-paths changes, and datadir.o is rebuilt, only when a path does.
KGOV_PATHS := $(CURDIR) $(abspath $(O)) $(datadir) $(prefix) $(libdir) $(includedir)
$(O)/lib/util/datadir.o: BASE_CFLAGS += -DIL_SRCDIR='"$(CURDIR)"' \
	-DIL_BUILDDIR='"$(abspath $(O))"' -DIL_DATADIR='"$(datadir)"'
$(O)/lib/util/datadir.o: $(O)/install-paths
$(O)/install-paths: FORCE
	@mkdir -p $(dir $@)
	@echo '$(KGOV_PATHS)' | cmp -s - $@ 2>/dev/null || echo '$(KGOV_PATHS)' > $@

# `idlelab review` and `verdict -f json` cite the idlelab that ran as `git describe`;
# $(O)/git-describe changes, and git_version.o is rebuilt, only when that does.
GIT_DESCRIBE := $(shell git describe --always --dirty 2>/dev/null || echo unknown)
$(O)/src/git_version.o: BASE_CFLAGS += -DIL_GIT_DESCRIBE='"$(GIT_DESCRIBE)"'
$(O)/src/git_version.o: $(O)/git-describe
$(O)/git-describe: FORCE
	@mkdir -p $(dir $@)
	@echo '$(GIT_DESCRIBE)' | cmp -s - $@ 2>/dev/null || echo '$(GIT_DESCRIBE)' > $@

# ---- the shared library ------------------------------------------------------------------
# libidlelab.so.$(SO_MAJOR): every library object is position-independent and hidden unless
# its declaration says IL_PUBLIC (include/idlelab/), so the soname promises only the public
# API. The CLI, the tests and the benches link the static archive (same objects).
LIB_CFLAGS := -fPIC -fvisibility=hidden
$(LIB_OBJS): BASE_CFLAGS += $(LIB_CFLAGS)

$(LIBIDLELAB_SO): $(LIB_OBJS)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(LDFLAGS) -shared -Wl,-soname,$(LIBIDLELAB_SONAME) -Wl,--no-undefined -o $@ \
		$(LIB_OBJS) $(LIBS)
	$(Q)ln -sf $(notdir $@) $(O)/$(LIBIDLELAB_SONAME) && ln -sf $(LIBIDLELAB_SONAME) $(O)/libidlelab.so

# ---- install (tools/perf and rtla style) ----------------------------------------------------
# make install [PREFIX=/usr/local] [DESTDIR=STAGE] [bindir= libdir= includedir= mandir= datadir=]
#   $(bindir)/idlelab
#   $(libdir)/libidlelab.so.$(SO_MAJOR) (+ .so.$(VERSION), .so), libidlelab.a, pkgconfig/idlelab.pc
#   $(includedir)/idlelab/*.h                   the public headers
#   $(datadir)/idlelab/kshim/, lib/*.h          kgov's kernel-API shim and the headers it includes
#   $(datadir)/idlelab/workloads/*.json         the rt-app workloads (-s rtapp:FILE)
#   $(datadir)/idlelab/traces/README.md, */*    the real traces `idlelab review` replays
#   $(mandir)/man1/$(MAN_PAGES)                 the man pages, when the tree has them
#   $(datadir)/bash-completion/completions/idlelab
INSTALL ?= install
# MAN_PAGES: the man pages, built into $(O)/man/*.1 by their rules (unset: the tree has none).
COMPLETION := $(wildcard completion/idlelab)
PUBLIC_HEADERS := $(sort $(wildcard include/idlelab/*.h))
WORKLOADS := $(sort $(wildcard workloads/*.json))
SHIPPED_TRACES := traces/README.md $(sort $(wildcard traces/*/*))
IDLELAB_PC := $(O)/idlelab.pc
# pkg-config modules a static link needs (what the library was built with).
PC_REQUIRES := $(strip $(if $(filter 1,$(FEATURE_JANSSON)),jansson >= $(MIN_JANSSON)) \
	$(if $(filter 1,$(FEATURE_LIBTRACECMD)),libtracecmd >= $(MIN_LIBTRACECMD)) \
	$(if $(filter 1,$(FEATURE_LIBTRACEFS)),libtracefs >= $(MIN_LIBTRACEFS)) \
	$(if $(filter 1,$(FEATURE_ZLIB)),zlib >= $(MIN_ZLIB)) \
	$(if $(filter 1,$(FEATURE_LZMA)),liblzma >= $(MIN_LZMA)) \
	$(if $(filter 1,$(FEATURE_ZSTD)),libzstd >= $(MIN_ZSTD)) \
	libRmath >= $(MIN_RMATH))

# ${prefix}/... where a directory is under the prefix, so --define-variable=prefix= moves it
under_prefix = $(patsubst $(prefix)/%,$${prefix}/%,$(1))
$(IDLELAB_PC): $(O)/install-paths Makefile
	@$(if $(Q),echo "  GEN     $@")
	$(Q)printf '%s\n' 'prefix=$(prefix)' 'libdir=$(call under_prefix,$(libdir))' \
		'includedir=$(call under_prefix,$(includedir))' '' \
		'Name: idlelab' \
		'Description: cpuidle governor lab: bit-exact governor ports, platforms, scenarios' \
		'Version: $(VERSION)' \
		'Requires.private: $(PC_REQUIRES)' \
		'Libs: -L$${libdir} -lidlelab' 'Libs.private: -lm -pthread' \
		'Cflags: -I$${includedir}' > $@.tmp && mv $@.tmp $@

# MAN_PAGES may be set anywhere in this file, so it is read when the rule runs ($$, recipe).
.PHONY: install uninstall installcheck FORCE
.SECONDEXPANSION:
install: all $(LIBIDLELAB_SO) $(IDLELAB_PC) $$(MAN_PAGES)
	@$(if $(Q),echo "  INSTALL $(DESTDIR)$(prefix)")
	$(Q)$(INSTALL) -d -m 755 $(DESTDIR)$(bindir) $(DESTDIR)$(libdir) $(DESTDIR)$(pkgconfigdir) \
		$(DESTDIR)$(includedir)/idlelab $(DESTDIR)$(datadir)/idlelab/workloads
	$(Q)$(INSTALL) -m 755 $(IDLELAB) $(DESTDIR)$(bindir)/idlelab
	$(Q)$(INSTALL) -m 644 $(LIBIDLELAB_SO) $(LIBIDLELAB) $(DESTDIR)$(libdir)/
	$(Q)ln -sf $(notdir $(LIBIDLELAB_SO)) $(DESTDIR)$(libdir)/$(LIBIDLELAB_SONAME)
	$(Q)ln -sf $(LIBIDLELAB_SONAME) $(DESTDIR)$(libdir)/libidlelab.so
	$(Q)$(INSTALL) -m 644 $(IDLELAB_PC) $(DESTDIR)$(pkgconfigdir)/idlelab.pc
	$(Q)$(INSTALL) -m 644 $(PUBLIC_HEADERS) $(DESTDIR)$(includedir)/idlelab/
	$(Q)for f in $$(scripts/kshim-files.sh '$(CC)'); do \
		$(INSTALL) -D -m 644 $$f $(DESTDIR)$(datadir)/idlelab/$$f || exit 1; done
	$(Q)$(INSTALL) -m 644 $(WORKLOADS) $(DESTDIR)$(datadir)/idlelab/workloads/
	$(Q)for f in $(SHIPPED_TRACES); do \
		$(INSTALL) -D -m 644 $$f $(DESTDIR)$(datadir)/idlelab/$$f || exit 1; done
	$(Q)$(if $(strip $(MAN_PAGES)),$(INSTALL) -d -m 755 $(DESTDIR)$(mandir)/man1 && \
		$(INSTALL) -m 644 $(MAN_PAGES) $(DESTDIR)$(mandir)/man1/,:)
ifneq ($(COMPLETION),)
	$(Q)$(INSTALL) -D -m 644 $(COMPLETION) $(DESTDIR)$(completiondir)/idlelab
endif

uninstall:
	$(Q)rm -f $(DESTDIR)$(bindir)/idlelab $(DESTDIR)$(pkgconfigdir)/idlelab.pc \
		$(addprefix $(DESTDIR)$(libdir)/,libidlelab.a libidlelab.so $(LIBIDLELAB_SONAME) \
		$(notdir $(LIBIDLELAB_SO))) \
		$(addprefix $(DESTDIR)$(mandir)/man1/,$(notdir $(MAN_PAGES))) \
		$(DESTDIR)$(completiondir)/idlelab
	$(Q)rm -rf $(DESTDIR)$(includedir)/idlelab $(DESTDIR)$(datadir)/idlelab

# Install into a temporary DESTDIR and use what was installed: the binary from another
# directory (kgov against the installed shim), the example built with pkg-config against the
# installed library, then uninstall and check that nothing is left (scripts/installcheck.sh).
installcheck: all $(LIBIDLELAB_SO)
	$(Q)CC='$(CC)' EXTRA_CFLAGS='$(SAN_FLAGS)' MAKE='$(MAKE)' scripts/installcheck.sh \
		'$(prefix)' '$(bindir)' '$(libdir)' '$(includedir)' '$(datadir)' '$(pkgconfigdir)'

# ---- man pages, the compressed-trace fuzz target, the progress unit test ----------------------
# man/*.1.scd -> $(O)/man/*.1 (scdoc), part of `all` when scdoc is installed.
SCDOC ?= scdoc
FEATURE_SCDOC := $(shell command -v $(SCDOC) >/dev/null 2>&1 && echo 1 || echo 0)
MAN_SRCS := $(sort $(wildcard man/*.1.scd))
MAN_PAGES := $(MAN_SRCS:man/%.scd=$(O)/man/%)
# The pages' date is the last commit's, so a rebuild gives the same bytes.
MAN_EPOCH := $(shell git log -1 --format=%ct 2>/dev/null)
.PHONY: man man-hint
ifeq ($(FEATURE_SCDOC),1)
all: man
check-cli: man
man: $(MAN_PAGES)
$(O)/man/%.1: man/%.1.scd
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  SCDOC   $@")
	$(Q)$(if $(MAN_EPOCH),SOURCE_DATE_EPOCH=$(MAN_EPOCH)) $(SCDOC) <$< >$@.tmp && mv $@.tmp $@
else
all: man-hint
man-hint:
	@echo "idlelab: man pages not built: please install scdoc (apt-get install scdoc)"
man:
	@echo "idlelab: the man pages need scdoc: please install scdoc (apt-get install scdoc)" >&2
	@exit 1
endif

# Compressed traces (lib/trace/codec.c): detection behind the decompressors that are built in.
FUZZ_CODEC_PKGS := $(if $(filter 1,$(FEATURE_ZLIB)),zlib) $(if $(filter 1,$(FEATURE_LZMA)),liblzma) \
	$(if $(filter 1,$(FEATURE_ZSTD)),libzstd)
FUZZ_CODEC_DEFS := $(if $(filter 1,$(FEATURE_ZLIB)),-DHAVE_ZLIB) \
	$(if $(filter 1,$(FEATURE_LZMA)),-DHAVE_LZMA) $(if $(filter 1,$(FEATURE_ZSTD)),-DHAVE_ZSTD)
$(O)/fuzz/fuzz_trace_compressed: $(FUZZ_TRACE_SRCS)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  FUZZCC  $@")
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -DREADER=NULL $(FUZZ_CODEC_DEFS) $(filter %.c,$^) -o $@ \
		$(if $(strip $(FUZZ_CODEC_PKGS)),$(shell $(PKG_CONFIG) --libs $(FUZZ_CODEC_PKGS)))
fuzz: $(O)/fuzz/fuzz_trace_compressed

# test_progress: the progress line of the CLI (src/progress.c), with the CLI objects as test_cli.
$(O)/tests/unit/test_progress: $(O)/tests/unit/test_progress.o $(CLI_LIB_OBJS) $(UNIT_HELPER_OBJS) $(LIBIDLELAB)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(LDFLAGS) -o $@ $< $(CLI_LIB_OBJS) $(UNIT_HELPER_OBJS) $(LIBIDLELAB) $(LIBS) -lcmocka

# test_port_mutants: the one-line mutants of the ports in tests/unit/port_mutants.list, each a
# sed-mutated copy of lib/gov/GOV.c (port-mutant.sh fails unless the sed changes exactly one
# line) compiled with il_presets_GOV renamed il_presets_GOV_mut_ID and linked into the test.
PORT_MUT_LIST := tests/unit/port_mutants.list
PORT_MUT_SH := tests/unit/port-mutant.sh
PORT_MUT_DIR := $(O)/tests/unit/port_mutants
PORT_MUT_IDS := $(shell $(PORT_MUT_SH) ids $(PORT_MUT_LIST))
PORT_MUT_GOVS := $(shell $(PORT_MUT_SH) govs $(PORT_MUT_LIST))
PORT_MUT_OBJS := $(PORT_MUT_IDS:%=$(PORT_MUT_DIR)/%.o)
$(PORT_MUT_IDS:%=$(PORT_MUT_DIR)/%.c): $(PORT_MUT_DIR)/%.c: $(PORT_MUT_LIST) $(PORT_MUT_SH) $(PORT_MUT_GOVS:%=lib/gov/%.c)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  MUTATE  $@")
	$(Q)$(PORT_MUT_SH) source $(PORT_MUT_LIST) $* > $@.tmp && mv $@.tmp $@
$(PORT_MUT_OBJS): $(PORT_MUT_DIR)/%.o: $(PORT_MUT_DIR)/%.c $(BUILD_FLAGS)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(BASE_CFLAGS) $(LIB_CFLAGS) $(CFLAGS) -Ilib/gov \
		$(foreach g,$(PORT_MUT_GOVS),-Dil_presets_$(g)=il_presets_$(g)_mut_$*) -c $< -o $@
$(PORT_MUT_DIR)/port_mutants.h: $(PORT_MUT_LIST) $(PORT_MUT_SH)
	@mkdir -p $(dir $@)
	$(Q)$(PORT_MUT_SH) table $(PORT_MUT_LIST) > $@.tmp && mv $@.tmp $@
$(O)/tests/unit/test_port_mutants.o: tests/unit/test_port_mutants.c $(PORT_MUT_DIR)/port_mutants.h $(BUILD_FLAGS)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(BASE_CFLAGS) $(CFLAGS) -I$(PORT_MUT_DIR) -c $< -o $@
$(O)/tests/unit/test_port_mutants: $(O)/tests/unit/test_port_mutants.o $(PORT_MUT_OBJS) $(UNIT_HELPER_OBJS) $(LIBIDLELAB)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(LDFLAGS) -o $@ $< $(PORT_MUT_OBJS) $(UNIT_HELPER_OBJS) $(LIBIDLELAB) $(LIBS) -lcmocka
-include $(PORT_MUT_OBJS:.o=.d)

# ---- tests -----------------------------------------------------------------------------------
# `make check` first installs what the tests need (scripts/install-deps.sh --test: one dpkg
# query, silent when nothing is missing), then runs the suite in a second make, which detects
# the features again (cmocka, clang, ... may have just been installed). NO_DEPS=1 skips the
# install: package builds, offline or unprivileged machines; the tests whose dependency is
# missing are then skipped, never compiled.
.PHONY: check-all
check:
	$(Q)$(if $(filter 1,$(NO_DEPS)),:,scripts/install-deps.sh --test)
	$(Q)$(MAKE) --no-print-directory check-all

# The scoreboard judges the model, not memory safety: the sanitizer build runs the same lab
# code under the unit and CLI tests, so it skips the scoreboard's 900 lab runs.
check-all: all check-unit check-cli check-vm installcheck $(if $(filter 1,$(SANITIZE)),,fidelity-check)

# Without cmocka the unit tests are skipped with the reason, and none of them is compiled.
ifeq ($(FEATURE_CMOCKA),1)
check-unit: $(UNIT_BINS)
	$(Q)tests/run-unit.sh $(UNIT_BINS)
else
check-unit:
	@echo "check-unit: SKIPPED: cmocka >= $(MIN_CMOCKA) not found (install libcmocka-dev, or" \
		"run make check without NO_DEPS=1, which installs it)"
endif

# IDLELAB_SANITIZED: a test may narrow a statistical check whose point is not memory safety
# (verdict.t's A/A over the whole battery) to keep the sanitizer pass within CI's time.
# The CLI tests are independent (each works in its own mktemp directory): prove runs one per
# core (CLI_JOBS=1 for one at a time).
CLI_JOBS ?= $(shell nproc 2>/dev/null || echo 1)
check-cli: $(IDLELAB)
	$(Q)IDLELAB=$(abspath $(IDLELAB)) IDLELAB_SANITIZED=$(SANITIZE) prove -j$(CLI_JOBS) -f tests/cli/

# idlelab states/measure against a real cpuidle driver: tests/cli/live-real.t and
# scripts/vm/guest-test.sh in a QEMU guest booted from Debian's kernel (docs/measure.md).
# run-guest.sh exits 77 when qemu, iasl, busybox-static or the kernel is missing: a skip.
check-vm: $(IDLELAB)
	$(Q)rc=0; scripts/vm/run-guest.sh --build $(O) || rc=$$?; \
	if [ $$rc = 77 ] && [ "$(VM_REQUIRED)" != 1 ]; then echo "check-vm: skipped"; rc=0; fi; \
	exit $$rc

asan:
	$(MAKE) SANITIZE=1 check

demo:
	$(Q)scripts/install-deps.sh
	$(Q)$(MAKE) --no-print-directory all
	$(Q)scripts/demo.sh $(IDLELAB)

deps:
	$(Q)scripts/install-deps.sh

# Without O=, both default build directories go.
clean:
	rm -rf $(sort $(O) $(if $(filter file,$(origin O)),build build-asan))

# ---- bench (run by `make bench`, not by the tests) --------------------------------------------
BENCH_SRCS := $(sort $(wildcard bench/*.c))
BENCH_BINS := $(BENCH_SRCS:%.c=$(O)/%)

$(O)/bench/%: $(O)/bench/%.o $(LIBIDLELAB)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(LDFLAGS) -o $@ $< $(LIBIDLELAB) $(LIBS)

bench: $(BENCH_BINS)
	$(Q)for b in $(BENCH_BINS); do $$b || exit 1; done

# The objects of the unit tests and benches are intermediates of pattern rules: keep them,
# so that a second `make check` does not recompile every test.
.SECONDARY:

-include $(LIB_OBJS:.o=.d) $(CLI_OBJS:.o=.d) $(UNIT_BINS:=.d) $(UNIT_HELPER_OBJS:.o=.d)
# a bench's object follows the headers it includes (a grown struct il_platform on its stack)
-include $(BENCH_BINS:=.d)

# ---- fidelity scoreboard (`make fidelity`, issue 16; `make check` runs fidelity-check) -------
# tests/fidelity/fidelity runs the lab for every number of tests/fidelity/seeds.tsv; the
# Student-t quantiles come from lib/stat (libRmath, GPL-2.0+).
FIDELITY_BIN := $(O)/tests/fidelity/fidelity
$(FIDELITY_BIN): $(O)/tests/fidelity/fidelity.o $(O)/tests/fidelity/seeds.o $(O)/tests/fidelity/robust_call.o $(O)/src/progress.o $(LIBIDLELAB)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)
$(O)/tests/unit/test_fidelity: $(O)/tests/unit/test_fidelity.o $(O)/tests/fidelity/seeds.o $(O)/tests/fidelity/robust_call.o $(UNIT_HELPER_OBJS) $(LIBIDLELAB)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LIBS) -lcmocka
-include $(O)/tests/fidelity/fidelity.d $(O)/tests/fidelity/seeds.d $(O)/tests/fidelity/robust_call.d
# tests/validation/calls: the verdict's statistics on samples from outside the lab (the guest's
# real runs and the frozen lab prediction of docs/validation.md); tests/cli/trust-validation.t.
CALLS_BIN := $(O)/tests/validation/calls
$(CALLS_BIN): $(O)/tests/validation/calls.o $(LIBIDLELAB)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)
-include $(O)/tests/validation/calls.d
# tests/cli/validation-calls.t and fidelity-check.t run these two.
check-cli: $(CALLS_BIN) $(FIDELITY_BIN)
.PHONY: fidelity fidelity-check
# make fidelity scores the lab's robust call (the verdict's ensemble over every nominal call,
# about 10 min of CPU) against tests/fidelity/baseline-ensemble.txt and fails when a figure is
# worse. fidelity-check, which make check runs, scores the nominal call only (--ensemble 0:
# the ensemble would add several minutes of CPU to CI) against tests/fidelity/baseline.txt.
# Improving a figure is a commit of its baseline. The same run writes docs/lab.md's findings
# and fails when the committed section is stale (fidelity-doc-check's test, one run for both).
# CI runs make fidelity after make check.
fidelity: $(FIDELITY_BIN)
	$(Q)$(FIDELITY_BIN) --scan --markdown $(O)/fidelity-findings.md \
		--check tests/fidelity/baseline-ensemble.txt tests/fidelity/seeds.tsv
	$(Q)scripts/fidelity-doc.sh check docs/lab.md $(O)/fidelity-findings.md
fidelity-check: $(FIDELITY_BIN)
	$(Q)$(FIDELITY_BIN) --ensemble 0 --check tests/fidelity/baseline.txt tests/fidelity/seeds.tsv \
		>$(O)/fidelity-check.txt || \
		{ rc=$$?; grep -E '^fidelity: |^goal ' $(O)/fidelity-check.txt; exit $$rc; }
	$(Q)grep -E '^fidelity: |^goal ' $(O)/fidelity-check.txt
# docs/lab.md's findings section is the scoreboard's output (--markdown), between markers;
# fidelity-doc-check regenerates it (make fidelity's run, with the ensemble) and fails when the
# doc is stale.
.PHONY: fidelity-doc fidelity-doc-check
fidelity-doc: $(FIDELITY_BIN)
	$(Q)$(FIDELITY_BIN) --scan --markdown $(O)/fidelity-findings.md tests/fidelity/seeds.tsv >/dev/null
	$(Q)scripts/fidelity-doc.sh write docs/lab.md $(O)/fidelity-findings.md
fidelity-doc-check: $(FIDELITY_BIN)
	$(Q)$(FIDELITY_BIN) --scan --markdown $(O)/fidelity-findings.md tests/fidelity/seeds.tsv >/dev/null
	$(Q)scripts/fidelity-doc.sh check docs/lab.md $(O)/fidelity-findings.md
