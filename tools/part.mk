# build/rdmaio: runs fio into result files, reports and compares them.
RDMAIO_TOOL_SRCS := rdmaio spawn file jutil jobfile host envstatus fio \
	summary derive check schema result report compare
RDMAIO_TOOL_OBJS := $(RDMAIO_TOOL_SRCS:%=$(B)/tools/%.o)
RDMAIO_SCHEMA := $(CURDIR)/results-schema/result.schema.json
RDMAIO_VERSION := $(shell git describe --always --dirty 2>/dev/null || echo unknown)

PROGRAMS += $(B)/rdmaio

$(B)/rdmaio: $(RDMAIO_TOOL_OBJS)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ -ljson-c -lcrypto -lm

# The schema is assembled into the binary; rebuild when it changes.
$(B)/tools/schema.o: $(RDMAIO_SCHEMA)
$(B)/tools/schema.o: CPPFLAGS += -DRDMAIO_SCHEMA_FILE='"$(RDMAIO_SCHEMA)"'

# Rebuild host.o when `git describe` changes, not on every make.
$(B)/tools/version.stamp: FORCE
	@mkdir -p $(@D)
	@echo '$(RDMAIO_VERSION)' | cmp -s - $@ || echo '$(RDMAIO_VERSION)' > $@
$(B)/tools/host.o: $(B)/tools/version.stamp
$(B)/tools/host.o: CPPFLAGS += -DRDMAIO_VERSION='"$(RDMAIO_VERSION)"'

.PHONY: FORCE
FORCE:
