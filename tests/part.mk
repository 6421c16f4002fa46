# tests/fuzz: libFuzzer targets (clang -fsanitize=fuzzer,address,undefined),
# built apart from the normal builds. `make fuzz` runs each for FUZZ_SECONDS;
# tests/run runs each for a short bounded time.
FUZZ_B := build/fuzz
FUZZ_CC ?= clang
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer
FUZZ_CFLAGS := $(CSTD) $(WARN) -D_GNU_SOURCE -MMD -MP -g -O1 \
	-fsanitize=fuzzer-no-link $(FUZZ_SAN)
FUZZ_LDFLAGS := -fsanitize=fuzzer $(FUZZ_SAN)
FUZZ_NAMES := exports-line exports-entry hello result chart report
FUZZ_BINS := $(FUZZ_NAMES:%=$(FUZZ_B)/fuzz-%)
FUZZ_SECONDS ?= 600

$(FUZZ_B)/%.o: %.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_CPPFLAGS) -c -o $@ $<

$(FUZZ_B)/tests/fuzz/fuzz-exports-%.o $(FUZZ_B)/deploy/%.o: \
	FUZZ_CPPFLAGS = -Ideploy -Icommon
$(FUZZ_B)/common/%.o: FUZZ_CPPFLAGS = -Icommon
$(FUZZ_B)/tests/fuzz/fuzz-hello.o $(FUZZ_B)/engine/%.o: FUZZ_CPPFLAGS = -Iengine
$(FUZZ_B)/tests/fuzz/fuzz-result.o $(FUZZ_B)/tests/fuzz/fuzz-chart.o \
	$(FUZZ_B)/tests/fuzz/fuzz-report.o $(FUZZ_B)/tests/fuzz/named-doc.o: \
	FUZZ_CPPFLAGS = -Itools -Icommon
$(FUZZ_B)/tools/result/schema.o: $(RDMAIO_SCHEMA)
$(FUZZ_B)/tools/%.o: FUZZ_CPPFLAGS = -Itools -Icommon
$(FUZZ_B)/tools/result/schema.o: FUZZ_CPPFLAGS = -Itools -Icommon \
	-DRDMAIO_SCHEMA_FILE='"$(RDMAIO_SCHEMA)"'
$(FUZZ_B)/tools/result/host.o: \
	FUZZ_CPPFLAGS = -Itools -Icommon -DRDMAIO_VERSION='"fuzz"'

# tools/part.mk is read after this file: its object list is expanded late.
FUZZ_TOOL_OBJS = $(patsubst $(B)/%,$(FUZZ_B)/%,$(RDMAIO_TOOL_LIB_OBJS))
FUZZ_RC_OBJS = $(patsubst $(B)/%,$(FUZZ_B)/%,$(RC_OBJS))
.SECONDEXPANSION:
.PRECIOUS: $(FUZZ_B)/%.o

$(FUZZ_B)/fuzz-exports-%: $(FUZZ_B)/tests/fuzz/fuzz-exports-%.o \
		$(FUZZ_B)/deploy/exports.o $$(FUZZ_RC_OBJS)
	$(FUZZ_CC) $(FUZZ_LDFLAGS) -o $@ $^ $(RC_LIBS)
$(FUZZ_B)/fuzz-hello: $(FUZZ_B)/tests/fuzz/fuzz-hello.o $(FUZZ_B)/engine/proto.o
	$(FUZZ_CC) $(FUZZ_LDFLAGS) -o $@ $^
$(FUZZ_B)/fuzz-result: $(FUZZ_B)/tests/fuzz/fuzz-result.o $$(FUZZ_TOOL_OBJS) \
		$$(FUZZ_RC_OBJS)
	$(FUZZ_CC) $(FUZZ_LDFLAGS) -o $@ $^ $(RC_LIBS) -lcrypto -lm

$(FUZZ_B)/fuzz-chart $(FUZZ_B)/fuzz-report: $(FUZZ_B)/fuzz-%: \
		$(FUZZ_B)/tests/fuzz/fuzz-%.o $(FUZZ_B)/tests/fuzz/named-doc.o \
		$$(FUZZ_TOOL_OBJS) $$(FUZZ_RC_OBJS)
	$(FUZZ_CC) $(FUZZ_LDFLAGS) -o $@ $^ $(RC_LIBS) -lcrypto -lm

.PHONY: fuzz fuzz-build
fuzz-build: $(FUZZ_BINS)
fuzz: fuzz-build
	@FUZZ_SECONDS=$(FUZZ_SECONDS) tests/fuzz/run

