# librdmaio.so, the fio external ioengine, and its host-side unit tests.
# It is compiled against the configured source tree of the installed fio:
# fio refuses an engine built for another ioengine ABI version.

ENGINE_SRCS := engine/engine.c engine/client.c engine/client_io.c \
	engine/target.c engine/target_io.c engine/cm.c engine/cq.c \
	engine/mr.c engine/port.c engine/async.c \
	engine/opts.c engine/proto.c engine/errmsg.c engine/sendq.c \
	engine/slots.c
ENGINE_OBJS := $(ENGINE_SRCS:%.c=$(B)/%.o)
# The parts that need neither fio nor a device: unit-tested on the host.
ENGINE_PURE_OBJS := $(B)/engine/opts.o $(B)/engine/proto.o $(B)/engine/errmsg.o \
	$(B)/engine/sendq.o $(B)/engine/slots.o
ENGINE_FIO_STAMP := $(B)/engine/fio-version

LIBS += $(B)/librdmaio.so

# fio's headers are not -Wshadow/-Wmissing-prototypes clean: -isystem keeps
# our warnings for our code only.
$(ENGINE_OBJS): CPPFLAGS += -fPIC -fvisibility=hidden \
	-include $(FIO_SRC)/config-host.h -isystem $(FIO_SRC) -Iengine
$(ENGINE_OBJS): $(ENGINE_FIO_STAMP)

# Re-checked on every make (cheap); the stamp changes only when the fio
# version does, so a new fio rebuilds the engine.
$(ENGINE_FIO_STAMP): FORCE_ENGINE_FIO
	@if [ ! -f $(FIO_SRC)/config-host.h ]; then \
		echo "engine: $(FIO_SRC)/config-host.h is missing: $(FIO_SRC_HINT)" >&2; exit 1; fi
	@src=$$(sed -n 's/^FIO_VERSION = //p' $(FIO_SRC)/FIO-VERSION-FILE 2>/dev/null); \
	run=$$($(FIO) --version 2>/dev/null); \
	if [ -z "$$run" ]; then \
		echo "engine: '$(FIO) --version' gave nothing: install fio or set FIO=" >&2; exit 1; fi; \
	if [ "$$src" != "$$run" ]; then \
		echo "engine: fio source $(FIO_SRC) is '$$src' but '$(FIO)' is '$$run': the engine must be built against the source of the fio it runs in; $(FIO_SRC_HINT) for $$run" >&2; exit 1; fi; \
	mkdir -p $(@D); \
	if [ "$$(cat $@ 2>/dev/null)" != "$$src" ]; then echo "$$src" > $@; fi

.PHONY: FORCE_ENGINE_FIO
FORCE_ENGINE_FIO:

$(B)/librdmaio.so: $(ENGINE_OBJS) engine/librdmaio.map
	$(CC) -shared -Wl,--version-script=engine/librdmaio.map -o $@ $(ENGINE_OBJS) $(ALL_LDFLAGS) -libverbs -lrdmacm

# Unit tests: cmocka, linked with the pure objects only.
ENGINE_TEST_NAMES := proto opts errmsg port sendq slots alive cq
ENGINE_TESTS := $(ENGINE_TEST_NAMES:%=$(B)/tests/engine/test-%)
ENGINE_TEST_OBJS := $(ENGINE_TEST_NAMES:%=$(B)/tests/engine/test-%.o) \
	$(B)/tests/engine/log-capture.o
UNIT_TESTS += $(ENGINE_TESTS)

$(ENGINE_TEST_OBJS): CPPFLAGS += -Iengine -Itests/engine
$(ENGINE_TESTS): $(B)/tests/engine/test-%: $(B)/tests/engine/test-%.o \
		$(B)/tests/engine/log-capture.o $(ENGINE_PURE_OBJS)
	$(CC) -o $@ $^ $(ALL_LDFLAGS) -lcmocka -libverbs
$(B)/tests/engine/test-port: $(B)/engine/port.o
$(B)/tests/engine/test-cq: $(B)/engine/cq.o

# The client's data path against a fake device behind the verbs ops: built
# with fio's headers like the engine, with fio's few calls stood in for.
ENGINE_FIO_TESTS := $(B)/tests/engine/test-client-io
UNIT_TESTS += $(ENGINE_FIO_TESTS)
$(B)/tests/engine/test-client-io.o: CPPFLAGS += -Iengine -Itests/engine \
	-include $(FIO_SRC)/config-host.h -isystem $(FIO_SRC)
$(B)/tests/engine/test-client-io.o: $(ENGINE_FIO_STAMP)
$(B)/tests/engine/test-client-io: $(B)/tests/engine/test-client-io.o \
		$(B)/engine/client.o $(B)/engine/client_io.o $(B)/engine/sendq.o \
		$(B)/engine/errmsg.o $(B)/engine/proto.o $(B)/engine/opts.o \
		$(B)/engine/cm.o $(B)/engine/cq.o $(B)/engine/mr.o \
		$(B)/engine/port.o $(B)/engine/async.o $(B)/tests/engine/log-capture.o
	$(CC) -o $@ $^ $(ALL_LDFLAGS) -lcmocka -lrdmacm -libverbs

# A client that breaks the protocol's window, for the lab tests: built with
# everything else, never installed.
ENGINE_LAB_HELPERS := $(B)/tests/engine/rogue-client
all: $(ENGINE_LAB_HELPERS)
$(B)/tests/engine/rogue-client.o: CPPFLAGS += -Iengine
$(B)/tests/engine/rogue-client: $(B)/tests/engine/rogue-client.o $(B)/engine/proto.o \
		$(B)/tests/engine/log-capture.o
	$(CC) -o $@ $^ $(ALL_LDFLAGS) -lrdmacm -libverbs
