# rdmaio — see README.md. `make deps` once, then `make`, `make test`, `make demo`.
PREFIX ?= /usr/local
# make demo: LAB=1 runs in the lab; LAB=0 SERVER=... [DEV=...] on hardware.
# HOSTS=2 (server and client hosts) unless HOSTS=1.
LAB ?= 1
HOSTS ?= 2
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

.PHONY: all deps ensure-deps test demo bench install clean distclean format \
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

demo: ensure-deps
	@$(MAKE) --no-print-directory all
	@LAB=$(LAB) HOSTS=$(HOSTS) DEV=$(DEV) SERVER=$(SERVER) SERVER_IP=$(SERVER_IP) \
		SERVER_DIR=$(SERVER_DIR) scripts/demo

# A benchmark, not a test: perftest vs fio's rdma engine vs librdmaio.
bench: all
	@LAB=$(LAB) DEV=$(DEV) SERVER=$(SERVER) scripts/bench

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib
	$(if $(PROGRAMS),install -m 0755 $(PROGRAMS) $(DESTDIR)$(PREFIX)/bin)
	$(if $(LIBS),install -m 0755 $(LIBS) $(DESTDIR)$(PREFIX)/lib)

# clean keeps build/fio-src: fetching it again needs apt and the network.
clean:
	find build -mindepth 1 -maxdepth 1 ! -name fio-src -exec rm -rf {} +

distclean:
	rm -rf build

C_FILES = $(shell git ls-files '*.c' '*.h')
format:
	clang-format -i $(C_FILES)
check-format:
	@out=$$(for f in $(C_FILES); do clang-format "$$f" | diff -q "$$f" - >/dev/null || echo "$$f"; done); \
	if [ -n "$$out" ]; then echo "not clang-formatted (run 'make format'):"; echo "$$out"; exit 1; fi

-include $(shell find $(B) -name '*.d' 2>/dev/null)
