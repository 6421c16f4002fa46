# deploy/: nfsrdma, the shell-free NFS/RDMA deployment helper (issue 4).
NR_LIB_SRCS := deploy/sysfile.c deploy/kmodule.c deploy/link.c \
	deploy/helper.c deploy/rundir.c deploy/daemon.c deploy/tuning.c deploy/nfsd.c deploy/exports.c \
	deploy/exportfile.c deploy/etab.c deploy/sigdefer.c deploy/nfsmount.c \
	deploy/umount.c deploy/reach.c deploy/probe.c deploy/doctor.c
NR_SRCS := $(NR_LIB_SRCS) deploy/main.c deploy/cmd_export.c \
	deploy/cmd_mount.c deploy/cmd_status.c
NR_LIB_OBJS := $(NR_LIB_SRCS:%.c=$(B)/%.o)
NR_LIBS := -lkmod -ljson-c -lnfs -libverbs -ltirpc
# libtirpc's headers (pmap_getport) live in their own folder.
$(B)/deploy/nfsd.o: CPPFLAGS += $(shell pkg-config --cflags libtirpc)

PROGRAMS += $(B)/nfsrdma

$(B)/nfsrdma: $(NR_SRCS:%.c=$(B)/%.o) $(RC_LIB)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(NR_LIBS)

# Host unit tests: pure encoders and writers against a temporary root.
NR_TESTS := $(B)/tests/deploy/test-rdmanl $(B)/tests/deploy/test-nfsd \
	$(B)/tests/deploy/test-exports $(B)/tests/deploy/test-status \
	$(B)/tests/deploy/test-mount $(B)/tests/deploy/test-noshell \
	$(B)/tests/deploy/test-daemon $(B)/tests/deploy/test-tuning
UNIT_TESTS += $(NR_TESTS)

$(B)/tests/deploy/test-noshell.o: CPPFLAGS += -DNR_DEPLOY_DIR='"$(CURDIR)/deploy"' \
	-DNR_COMMON_DIR='"$(CURDIR)/common"'
$(B)/tests/deploy/test-%.o: CPPFLAGS += -Ideploy

# Only the tests' build honours NFSRDMA_ROOT (see sysfile.h).
NR_TEST_LIB_OBJS := $(filter-out $(B)/deploy/sysfile.o,$(NR_LIB_OBJS)) \
	$(B)/deploy/sysfile-test.o
$(B)/deploy/sysfile-test.o: deploy/sysfile.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(CPPFLAGS) -DNR_TEST_BUILD -c -o $@ $<

$(NR_TESTS): $(B)/tests/deploy/test-%: $(B)/tests/deploy/test-%.o \
		$(NR_TEST_LIB_OBJS) $(RC_LIB)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(NR_LIBS) -lcmocka
