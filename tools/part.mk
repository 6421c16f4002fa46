# build/rdmaio: runs fio into result files, reports and compares them.
# Three wings over a base (ARCHITECTURE.md): run/ runs fio and watches the
# hosts, result/ makes and checks the result, read/ reports, charts and
# compares results; the command line is on top: rdmaio.c (main, the option
# tables), args.c, options.c and a cmd_*.c per subcommand.
RDMAIO_BASE := jsonread strv units text tmpdir arena cpulist
RDMAIO_RUN := jobfile jobpath fiorun fioserver fiohosts remote numa \
	cpuwatch taskwatch mountwatch runwatch baseline
RDMAIO_RESULT := fiooutput jobsection hostmap summary derive rounds stats cpustat runrecord cpucost check check_loopback \
	check_nfs check_fair check_numa check_overlap schema host envstatus envdoc result outfile resultdoc resultenv
RDMAIO_READ := report report_baselines report_settings report_three cell chart plotfile gpstr csvout compare changes noise scaling
RDMAIO_CLI := rdmaio args options cmd_run cmd_check cmd_report cmd_cpu_watch \
	cmd_compare cmd_env cmd_scale
RDMAIO_TOOL_SRCS := $(RDMAIO_CLI) $(RDMAIO_BASE:%=base/%) $(RDMAIO_RUN:%=run/%) \
	$(RDMAIO_RESULT:%=result/%) $(RDMAIO_READ:%=read/%)
RDMAIO_TOOL_OBJS := $(RDMAIO_TOOL_SRCS:%=$(B)/tools/%.o)
RDMAIO_SCHEMA := $(CURDIR)/results-schema/result.schema.json
RDMAIO_VERSION := $(shell git describe --always --dirty 2>/dev/null || echo unknown)

PROGRAMS += $(B)/rdmaio

# A header of the tools is named with its wing: "run/fiorun.h".
$(B)/tools/%.o $(B)/tests/tools/%.o: CPPFLAGS += -Itools

$(B)/rdmaio: $(RDMAIO_TOOL_OBJS) $(RC_LIB)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(RC_LIBS) -lcrypto -lm

# The schema is assembled into the binary; rebuild when it changes.
$(B)/tools/result/schema.o: $(RDMAIO_SCHEMA)
$(B)/tools/result/schema.o: CPPFLAGS += -DRDMAIO_SCHEMA_FILE='"$(RDMAIO_SCHEMA)"'

# Rebuild host.o when `git describe` changes, not on every make.
$(B)/tools/version.stamp: FORCE
	@mkdir -p $(@D)
	@echo '$(RDMAIO_VERSION)' | cmp -s - $@ || echo '$(RDMAIO_VERSION)' > $@
$(B)/tools/result/host.o: $(B)/tools/version.stamp
$(B)/tools/result/host.o: CPPFLAGS += -DRDMAIO_VERSION='"$(RDMAIO_VERSION)"'

# Installed job files are found by name under RDMAIO_DATADIR (the top
# Makefile's install folders); rebuild jobpath.o when that changes.
$(B)/tools/run/jobpath.o: $(INSTALL_DIRS_STAMP)
$(B)/tools/run/jobpath.o: CPPFLAGS += -DRDMAIO_DATADIR='"$(RDMAIO_DATADIR)"'

.PHONY: FORCE
FORCE:

# Host tests: the cmocka unit tests, and the script tests run through a
# wrapper that names this build's rdmaio (plain or SAN=1).
RDMAIO_TOOL_LIB_OBJS := $(filter-out $(B)/tools/rdmaio.o,$(RDMAIO_TOOL_OBJS))
UNIT_TESTS += $(B)/tests/tools/test-tools $(B)/tests/tools/test-hosts \
	$(B)/tests/tools/test-cpu $(B)/tests/tools/test-stats \
	$(B)/tests/tools/test-numa
# The script tests drive the whole binary through the same code in either
# build, two minutes a build: they run in the sanitizer build, where a
# memory error fails them too; the lab tests run the plain binary. make
# install runs the same in either build: the plain one checks it.
ifeq ($(SAN),0)
UNIT_TESTS += $(B)/tests/tools/install-host
else
UNIT_TESTS += $(B)/tests/tools/rdmaio-host $(B)/tests/tools/measure-host \
	$(B)/tests/tools/rounds-host $(B)/tests/tools/safe-host
endif

$(B)/tests/tools/test-tools $(B)/tests/tools/test-hosts \
		$(B)/tests/tools/test-cpu $(B)/tests/tools/test-stats \
		$(B)/tests/tools/test-numa: \
		$(B)/tests/tools/%: $(B)/tests/tools/%.o $(RDMAIO_TOOL_LIB_OBJS) \
		$(RC_LIB)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ -lcmocka $(RC_LIBS) -lcrypto -lm

$(B)/tests/tools/rdmaio-host $(B)/tests/tools/measure-host \
		$(B)/tests/tools/rounds-host $(B)/tests/tools/safe-host: \
		$(B)/tests/tools/%: tests/tools/%.sh $(B)/rdmaio
	@mkdir -p $(@D)
	printf '#!/bin/sh\nexec %s/tests/tools/$*.sh %s/$(B)/rdmaio\n' \
		'$(CURDIR)' '$(CURDIR)' >$@
	chmod +x $@

$(B)/tests/tools/install-host: tests/tools/install-host.sh $(B)/rdmaio
	@mkdir -p $(@D)
	printf '#!/bin/sh\nexec %s/tests/tools/install-host.sh %s SAN=%s CC=%s\n' \
		'$(CURDIR)' '$(abspath $(B))' '$(SAN)' '$(CC)' >$@
	chmod +x $@
