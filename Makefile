# rdmaio — see README.md. `make deps` once, then `make`, `make test`, `make demo`.
PREFIX ?= /usr/local
# make demo: LAB=1 runs in the lab; LAB=0 SERVER=... [DEV=...] on hardware.
# HOSTS=2 (server and client hosts) unless HOSTS=1. FULL=1 adds the message-size
# sweep and the multi-QP jobs; ASYNC=1 exports async instead of sync.
LAB ?= 1
HOSTS ?= 2
FULL ?= 0
ASYNC ?= 0
CC ?= cc
FIO ?= fio
# SAN=1 builds everything with ASan/UBSan into build/san; tests run both builds.
SAN ?= 0

# B, the build folder, may be overridden (tests/run builds with clang in build/clang).
ifeq ($(SAN),1)
B ?= build/san
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=all
else
B ?= build
SANFLAGS :=
endif

# fio's headers need GNU extensions (typeof, statement expressions).
CSTD := -std=gnu11
WARN := -Wall -Wextra -Werror -Wshadow -Wformat=2 -Wmissing-prototypes \
	-Wstrict-prototypes
CFLAGS ?= -O2 -g
ALL_CFLAGS = $(CSTD) $(WARN) -D_GNU_SOURCE -MMD -MP $(SANFLAGS) $(CFLAGS)
ALL_LDFLAGS = $(SANFLAGS) $(LDFLAGS)

# The fio source tree the engine is compiled against: Debian's source of the
# installed fio, fetched by `make deps`, unless the user names their own.
ifeq ($(origin FIO_SRC),undefined)
FIO_SRC := build/fio-src
FIO_SRC_HINT := run 'make deps' to fetch and configure the source of the installed fio
else
FIO_SRC_HINT := run './configure --disable-native' in FIO_SRC=$(FIO_SRC)
endif

# Parts append their outputs here: PROGRAMS and LIBS are installed, UNIT_TESTS
# are host-side test programs run by tests/run.
PROGRAMS :=
LIBS :=
UNIT_TESTS :=

# make install: PROGRAMS to BINDIR, LIBS to LIBDIR, the job files and the
# schema (with their READMEs) to RDMAIO_DATADIR, the man pages to MANDIR;
# DESTDIR is prepended to each. rdmaio finds installed job files by name in
# RDMAIO_DATADIR, and the pages name these folders, so both are built for
# them (INSTALL_DIRS_STAMP changes when they do).
BINDIR = $(PREFIX)/bin
LIBDIR = $(PREFIX)/lib
DATADIR = $(PREFIX)/share
MANDIR = $(DATADIR)/man
RDMAIO_DATADIR = $(DATADIR)/rdmaio
INSTALL_DATA := $(sort $(wildcard jobs/*.fio jobs/*/*.fio)) jobs/README.md \
	results-schema/result.schema.json results-schema/README.md
MAN_PAGES := man/rdmaio.1 man/librdmaio.7 man/nfsrdma.8
INSTALL_DIRS_STAMP := $(B)/install-dirs.stamp

.PHONY: all deps ensure-deps test demo bench bench-exact bench-compare bench-steady bench-profile bench-send-cpu bench-insn bench-fleet lab-insn install clean distclean format \
	check-format unit-tests print-unit-tests
all:

include $(sort $(wildcard */part.mk))

all: $(PROGRAMS) $(LIBS)
unit-tests: $(UNIT_TESTS)
print-unit-tests:
	@echo $(UNIT_TESTS)

$(B)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(CPPFLAGS) -c -o $@ $<

deps:
	@scripts/deps
ifeq ($(FIO_SRC),build/fio-src)
	@scripts/fio-src build/fio-src
endif
	@lab/kernel >/dev/null

# make demo and make test on a fresh machine or clone: the set-up first (as
# root), then the build, in a make of their own (the build needs the fio tree).
ensure-deps:
	@scripts/deps --ensure $(FIO_SRC)

test: ensure-deps
	@$(MAKE) --no-print-directory all
	@tests/run

# The settings reach the scripts through the environment (target-specific
# exports), never as text of a recipe: a SERVER holding shell syntax would
# otherwise run in make's shell, as root, before the script could refuse it.
DEMO_VARS = LAB HOSTS DEV SERVER SERVER_IP SERVER_IP2 SERVER_DIR CLIENTS
$(foreach v,$(DEMO_VARS),$(eval demo: export $(v) := $$($(v))))
demo: export DEMO_FULL = $(FULL)
demo: export DEMO_ASYNC = $(ASYNC)
demo: ensure-deps
	@$(MAKE) --no-print-directory all
	@scripts/demo

# A benchmark, not a test: perftest vs fio's rdma engine vs librdmaio, in one
# lab guest whose clock counts instructions (BENCH_EXACT=0: real time, where
# BENCH_HOSTS=2 puts the servers on a second guest; between two, latency is
# the emulated link's: milliseconds; engine/README.md, "Performance").
# bench-exact runs the figures FIGURE names (ids, comma-separated: make
# bench-exact FIGURE=list shows them), one round unless BENCH_ROUNDS says;
# PERF=1 samples each run with perf (results/profile-TIME/).
BENCH_HOSTS ?= 1
BENCH_VARS = LAB DEV SERVER BENCH_HOSTS BENCH_EXACT
$(foreach v,$(BENCH_VARS),$(eval bench bench-exact: export $(v) := $$($(v))))
bench-exact: export BENCH_ONLY = $(FIGURE)
bench-exact: export PERF := $(PERF)
bench: all
	@scripts/bench
bench-exact: all
	@scripts/bench --exact-figure

# Two bench results figure by figure: faster, slower or the same (exact lab).
bench-compare: export OLD := $(OLD)
bench-compare: export NEW := $(NEW)
bench-compare:
	@scripts/bench-compare.py "$$OLD" "$$NEW"

# Also a benchmark: whether WRITE bandwidth swings are the engine's or the
# host's (second-by-second samples of perftest and librdmaio, alternated),
# in the lab, between HOSTS guests (2 unless HOSTS=1).
bench-steady: all
	@lab/run --softroce --hosts $(HOSTS) \
		--timeout $$((300 + $${STEADY_ROUNDS:-6} * 2 * ($${STEADY_SECONDS:-10} + 15))) \
		-- scripts/bench-steady.py

# And where the CPU goes: perf on both guests while fio's rdma engine and
# librdmaio (polling, and with use_events=1) write, alternated
# (scripts/bench-profile; PROFILE_ROUNDS, PROFILE_SECONDS, PROFILE_BS).
bench-profile: all
	@lab/run --softroce --hosts $(HOSTS) \
		--timeout $$((300 + $${PROFILE_ROUNDS:-2} * 3 * ($${PROFILE_SECONDS:-10} + 90))) \
		-- scripts/bench-profile

# And a SEND's CPU per message in the whole exact guest (/proc/stat by two
# run lengths): ib_send_bw -e, librdmaio with use_events, fio's own loop
# (scripts/cpu-split.py).
bench-send-cpu: all
	@lab/run --softroce --exact --timeout 600 -- scripts/cpu-split.py send

# The same runs with every instruction counted, per function and shared
# object, in results/insn-TIME/ (lab/run --insn-count; lab-insn builds the
# counter): where the instructions of a message go. VERB=send (default),
# read or write.
VERB ?= send
bench-insn: all lab-insn
	@d=results/insn-$$(date -u +%Y%m%dT%H%M%SZ); \
	lab/run --softroce --exact --insn-count "$$d" --timeout 900 -- scripts/cpu-split.py $(VERB) && \
	scripts/insn-report.py "$$d"

# And what many client hosts cost rdmaio run, on this host without a lab:
# COUNTS (2 4 8 16 32 64) fio servers in pid namespaces of their own, one
# job on all at once (scripts/bench-fleet).
bench-fleet: export COUNTS := $(COUNTS)
bench-fleet: all
	@scripts/bench-fleet

# Every path make install writes, without DESTDIR; uninstall removes these.
INSTALLED_FILES = $(addprefix $(BINDIR)/,$(notdir $(PROGRAMS))) \
	$(addprefix $(LIBDIR)/,$(notdir $(LIBS))) \
	$(addprefix $(RDMAIO_DATADIR)/,$(INSTALL_DATA)) \
	$(foreach m,$(MAN_PAGES),$(MANDIR)/man$(subst .,,$(suffix $(m)))/$(notdir $(m)))
# The folders that are rdmaio's own: uninstall removes them once empty.
INSTALLED_OWN_DIRS = $(RDMAIO_DATADIR) \
	$(patsubst %/,%,$(sort $(dir $(addprefix $(RDMAIO_DATADIR)/,$(INSTALL_DATA)))))

.PHONY: FORCE_INSTALL_DIRS
FORCE_INSTALL_DIRS:
$(INSTALL_DIRS_STAMP): FORCE_INSTALL_DIRS
	@mkdir -p $(@D)
	@echo '$(RDMAIO_DATADIR) $(LIBDIR)' | cmp -s - $@ || \
		echo '$(RDMAIO_DATADIR) $(LIBDIR)' > $@

# The pages as installed: their Dd and Ld strings name the folders used.
$(MAN_PAGES:%=$(B)/%): $(B)/%: % $(INSTALL_DIRS_STAMP)
	@mkdir -p $(@D)
	sed -e 's|^\.ds Dd .*|.ds Dd $(RDMAIO_DATADIR)|' \
		-e 's|^\.ds Ld .*|.ds Ld $(LIBDIR)|' $< >$@

# One recipe line per file, so that make shows each (and -s hides them).
define INSTALL_NL


endef

# A folder that exists is left as it is (install -d would reset its mode:
# /usr/local/bin may be setgid staff); new ones get 0755 whatever the umask.
install: all $(MAN_PAGES:%=$(B)/%)
	$(foreach d,$(patsubst %/,%,$(sort $(addprefix $(DESTDIR),$(dir $(INSTALLED_FILES))))),\
		[ -d $(d) ] || install -d -m 0755 $(d)$(INSTALL_NL))
	$(if $(PROGRAMS),install -m 0755 $(PROGRAMS) $(DESTDIR)$(BINDIR))
	$(if $(LIBS),install -m 0755 $(LIBS) $(DESTDIR)$(LIBDIR))
	$(foreach f,$(INSTALL_DATA),\
		install -m 0644 $(f) $(DESTDIR)$(RDMAIO_DATADIR)/$(f)$(INSTALL_NL))
	$(foreach m,$(MAN_PAGES),install -m 0644 $(B)/$(m) \
		$(DESTDIR)$(MANDIR)/man$(subst .,,$(suffix $(m)))/$(notdir $(m))$(INSTALL_NL))

# Exactly what install wrote; of the folders, only rdmaio's own, once empty
# (deepest first: in reverse order a folder follows those inside it).
.PHONY: uninstall
uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED_FILES))
	@for d in $$(printf '%s\n' $(addprefix $(DESTDIR),$(INSTALLED_OWN_DIRS)) | LC_ALL=C sort -r); do \
		[ ! -d "$$d" ] || rmdir --ignore-fail-on-non-empty "$$d" || exit 1; done

# clean keeps build/fio-src and build/qemu-plugin: fetching them again needs
# apt and the network.
clean:
	find build -mindepth 1 -maxdepth 1 ! -name fio-src ! -name qemu-plugin -exec rm -rf {} +

distclean:
	rm -rf build

C_FILES = $(shell git ls-files '*.c' '*.h')
format:
	clang-format -i $(C_FILES)
check-format:
	@out=$$(for f in $(C_FILES); do clang-format "$$f" | diff -q "$$f" - >/dev/null || echo "$$f"; done); \
	if [ -n "$$out" ]; then echo "not clang-formatted (run 'make format'):"; echo "$$out"; exit 1; fi

-include $(shell find $(B) -name '*.d' 2>/dev/null)
