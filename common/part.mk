# common/: the code nfsrdma and rdmaio share (log, files, child processes and
# the host's RDMA and NFS facts), as one static library both link. The engine
# never uses it: fio loads librdmaio.so alone.
RC_SRCS := common/rc_log.c common/rc_file.c common/rc_proc.c \
	common/rc_mounts.c common/rc_rdmanl.c common/rc_links.c \
	common/rc_exports.c common/rc_status.c common/rc_spawn.c
RC_OBJS := $(RC_SRCS:%.c=$(B)/%.o)
RC_LIB := $(B)/common/librc.a
RC_LIBS := -ljson-c -libverbs

$(RC_LIB): $(RC_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

# Host unit tests of the library on its own.
RC_TESTS := $(B)/tests/common/test-common
UNIT_TESTS += $(RC_TESTS)

$(RC_TESTS): $(B)/tests/common/%: $(B)/tests/common/%.o $(RC_LIB)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ -lcmocka $(RC_LIBS)

# Every object of the two parts that use it, and their tests, see its headers.
$(B)/common/%.o $(B)/deploy/%.o $(B)/tools/%.o $(B)/tests/common/%.o \
	$(B)/tests/deploy/%.o $(B)/tests/tools/%.o: CPPFLAGS += -Icommon
